/**
 * What a proxy tool call does on the Pi side: the runtime's proxy request,
 * then what its outcome means for Pi — `"search"` direct tools it reached
 * become active, an error is thrown, and status also names the direct tools
 * that could not be registered.
 */
import {
  type AdapterRuntime,
  type CallResult,
  type ProxyParams,
  runProxyRequest,
} from "@pi-mcp-adapter/runtime";
import { type DirectToolRegistrar, directProblemLines, resultText } from "./direct-tools.js";

export async function runProxy(
  runtime: AdapterRuntime,
  registrar: DirectToolRegistrar,
  params: ProxyParams,
  signal: AbortSignal | undefined,
): Promise<{ content: CallResult["content"]; details: CallResult["details"] }> {
  const outcome = await runProxyRequest(runtime, params, signal);
  // `"search"` direct tools become active once our search returns them or the proxy calls one.
  const { hits, mode, tool, server } = outcome.details;
  if (Array.isArray(hits)) registrar.activate(hits as string[]);
  if (mode === "call" && typeof tool === "string" && typeof server === "string") {
    registrar.activate(registrar.namesOf(server, tool));
  }
  // The older Pi line ignores `isError` in results: throwing marks an error in both.
  if (outcome.isError) throw new Error(resultText(outcome));
  // Status also names direct tools that could not be registered (collisions, unknown names).
  if (mode === "status" && registrar.problems.length) {
    return {
      content: [
        ...outcome.content,
        { type: "text" as const, text: directProblemLines(registrar.problems).join("\n") },
      ],
      details: outcome.details,
    };
  }
  return { content: outcome.content, details: outcome.details };
}
