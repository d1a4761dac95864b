/**
 * What a resource read adds to the call pipeline's answer: a note when the
 * server reported the resource changed since this session last read it, and
 * on a failed template read, the server's completions for the values given
 * (so the model can try a valid one).
 */
import { describeError, McpAdapterError } from "@pi-mcp-adapter/core";
import type { ServerConnection } from "@pi-mcp-adapter/transport";
import type { CallResult } from "./call-result.js";
import { uriTemplateVariables } from "./uri-template.js";

/** `result` with a first line saying the resource changed since the last read. */
export function withChangedNote(result: CallResult, uri: string): CallResult {
  const note = `Note: the server reported ${uri} changed since it was last read in this session; this is its current content.`;
  return { ...result, content: [{ type: "text", text: note }, ...result.content] };
}

/**
 * The error of a failed template read, with suggestions for each variable
 * from `completion/complete` where the server offers completions. Never
 * throws itself: without suggestions the original error comes back.
 */
export async function withTemplateSuggestions(
  error: unknown,
  connection: ServerConnection | undefined,
  uriTemplate: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  if (!connection?.features.completions) return error;
  const hints: string[] = [];
  for (const name of new Set(uriTemplateVariables(uriTemplate))) {
    const given = args[name];
    const value = typeof given === "string" || typeof given === "number" ? String(given) : "";
    try {
      const ref = { type: "ref/resource" as const, uri: uriTemplate };
      let { values } = await connection.complete({ ref, argument: { name, value } });
      if (values.length === 0 && value !== "")
        ({ values } = await connection.complete({ ref, argument: { name, value: "" } }));
      if (values.length) hints.push(`${name}: ${values.slice(0, 10).join(", ")}`);
    } catch {
      // no suggestion is no worse than before
    }
  }
  if (hints.length === 0) return error;
  const code = (error as { code?: unknown }).code;
  return new McpAdapterError(
    typeof code === "string" ? code : "request_failed",
    `${describeError(error)}\nValues the server suggests — ${hints.join("; ")}`,
    { cause: error },
  );
}
