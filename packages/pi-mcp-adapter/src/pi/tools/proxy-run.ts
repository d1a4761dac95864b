/**
 * What a proxy tool call does on the Pi side: the runtime's proxy request,
 * then what its outcome means for Pi — `"search"` direct tools it reached
 * become active, an error is thrown, and status also names the direct tools
 * that could not be registered and what `directTools: "auto"` decided.
 */
import type { AdapterRuntime, ProxyDetails, ProxyOutcome } from "@pi-mcp-adapter/runtime";
import type { ProxyParams } from "@pi-mcp-adapter/runtime/startup";
import { loadRuntimeModule } from "../host/runtime-loading.js";
import { type DirectToolRegistrar, directStatusLines, resultText } from "./direct-tools.js";
import { piNameHints } from "./pi-name-hints.js";

export async function runProxy(
  runtime: AdapterRuntime,
  registrar: DirectToolRegistrar,
  params: ProxyParams,
  signal: AbortSignal | undefined,
  callId?: string,
): Promise<Pick<ProxyOutcome, "content" | "details">> {
  // Loaded with the runtime itself: `runtime` exists, so this is a resolved promise.
  const { runProxyRequest } = await loadRuntimeModule();
  const outcome = await runProxyRequest(runtime, params, signal, callId);
  registrar.activate(activatedBy(outcome.details, registrar));
  // The older Pi line ignores `isError` in results: throwing marks an error in both.
  if (outcome.isError) throw new Error(resultText(outcome));
  // Status also names direct tools that could not be registered (collisions, unknown names),
  // what `directTools: "auto"` decided, and MCP names that are also Pi's own tools.
  const direct =
    outcome.details.mode === "status"
      ? [...directStatusLines(registrar), ...(await piNameHints(runtime))]
      : [];
  if (direct.length) {
    return {
      content: [...outcome.content, { type: "text" as const, text: direct.join("\n") }],
      details: outcome.details,
    };
  }
  return { content: outcome.content, details: outcome.details };
}

/**
 * The `"search"` direct tools a proxy answer makes active: the ones our
 * search returned, or the one the proxy called. Every mode is named, so a
 * new one does not compile until someone decides what it activates.
 */
function activatedBy(details: ProxyDetails, registrar: DirectToolRegistrar): readonly string[] {
  switch (details.mode) {
    case "search":
      return details.hits;
    case "call":
      return registrar.namesOf(details.server, details.tool);
    case "status":
    case "server":
    case "describe":
    case "instructions":
    case "connect":
    case "auth-start":
    case "auth-complete":
    case "ui-messages":
    case "install":
      return [];
    default:
      return unknownMode(details);
  }
}

function unknownMode(details: never): never {
  throw new Error(`Unhandled proxy outcome: ${JSON.stringify(details)}`);
}
