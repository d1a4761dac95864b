/**
 * A 2026-07-28 result without `resultType` is read as complete. The
 * revision's schema says servers MUST send it, and SDK v2 rejects a result
 * without it; but the field's own description makes `complete` the default,
 * servers written against earlier drafts leave it out, and the conformance
 * suite expects a client to accept it. Being liberal costs nothing here:
 * the other result types (`input_required`, `task`) always name themselves.
 * Attach after the client connected (it chains the SDK's handler) and before
 * any channel that takes its own answers off the transport first.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export function defaultResultTypeToComplete(transport: Transport): void {
  const previous = transport.onmessage;
  transport.onmessage = (message, extra) => previous?.(withResultType(message), extra);
}

function withResultType<T>(message: T): T {
  const m = message as { id?: unknown; method?: unknown; result?: unknown };
  if (m === null || typeof m !== "object" || m.id === undefined || "method" in m) return message;
  const result = m.result;
  if (result === null || typeof result !== "object" || Array.isArray(result) || "resultType" in result)
    return message;
  return { ...m, result: { ...result, resultType: "complete" } } as T;
}
