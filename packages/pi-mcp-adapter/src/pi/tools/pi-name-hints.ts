/**
 * Hints for MCP names that are also the names of Pi's own tools (read, bash,
 * edit, write, grep, find, ls, …): a server called `bash`, or an MCP tool
 * the model calls `read` (a server with `toolPrefix: "none"`). Shown in
 * `/mcp-adapter status` and `mcp({})`, so neither the user nor the model
 * takes one for the other. Only what is known without connecting is read.
 */
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { PI_TOOL_NAMES } from "./direct-tools.js";

export async function piNameHints(
  runtime: Pick<AdapterRuntime, "listings">,
  piTools: readonly string[] = PI_TOOL_NAMES,
): Promise<string[]> {
  const pi = new Set(piTools);
  const hints: string[] = [];
  for (const { name } of runtime.listings.summaries()) {
    if (pi.has(name)) {
      hints.push(
        `hint: MCP server "${name}" has the name of Pi's own ${name} tool; its tools are MCP tools (mcp({server: "${name}"}) lists them), not Pi's ${name}.`,
      );
    }
    const known = await runtime.listings.known(name).catch(() => undefined);
    for (const tool of known ?? []) {
      if (tool.kind === "tool" && pi.has(tool.prefixedName)) {
        hints.push(
          `hint: MCP tool "${tool.prefixedName}" (server ${name}) has the name of Pi's own ${tool.prefixedName} tool: call it as mcp({tool: "${tool.prefixedName}"}); a bare ${tool.prefixedName} call runs Pi's.`,
        );
      }
    }
  }
  return hints;
}
