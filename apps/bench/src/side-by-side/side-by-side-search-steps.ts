/**
 * How each column searches the catalog through Pi, and how its answer is
 * read back: ours and 2.36 through their `mcp` proxy tool, the built-in with
 * exposure `codemode` through a `searchTools()` script in its `codemode`
 * tool, with `deferred` through `tool_search`; and the tool names in each
 * answer mapped back to the eval's `server/tool` keys.
 */
import { prefixedToolName } from "@pi-mcp-adapter/core";
import type { ScriptStep } from "@pi-mcp-adapter/test-kit";
import { formatToolName } from "pi-mcp-adapter-ref/types";
import { type EvalData, toolKey } from "../eval-data.js";
import { type AdapterId, searchStep } from "./side-by-side-project.js";

export const SEARCH_LIMIT = 10;

/** The built-in's tool name: `mcp__<server>__<tool>`, every character but letters, digits and `_` as `_`. */
export function builtinToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_");
}

/** The model's tool call that searches the catalog for `query` in this column. */
export function searchStepFor(id: AdapterId, query: string): ScriptStep {
  if (id === "codemode") {
    // `searchTools` resolves to `{ name, description }[]`; returned as is, the model gets it as JSON.
    const code = `return await searchTools(${JSON.stringify(query)}, { limit: ${SEARCH_LIMIT} });`;
    return { toolCall: { name: "codemode", arguments: { code } } };
  }
  if (id === "deferred")
    return { toolCall: { name: "tool_search", arguments: { query, limit: SEARCH_LIMIT } } };
  return searchStep(query);
}

/** The name each column shows for a tool, back to the eval's `server/tool` key. */
export function nameIndex(data: EvalData): Record<Exclude<AdapterId, "none">, Map<string, string>> {
  const ours = new Map<string, string>();
  const ref = new Map<string, string>();
  const builtin = new Map<string, string>();
  for (const tool of data.tools) {
    ours.set(prefixedToolName(tool.server, tool.name), toolKey(tool));
    ref.set(formatToolName(tool.name, tool.server, "server"), toolKey(tool));
    builtin.set(builtinToolName(tool.server, tool.name), toolKey(tool));
  }
  // A before/after run (`PI_MCP_BENCH_BEFORE`) puts another build of ours in the reference's column: ours' names.
  return { ours, ref: process.env.PI_MCP_BENCH_BEFORE ? ours : ref, codemode: builtin, deferred: builtin };
}

/**
 * The tool names of a search result, in order: each hit is a line `- <name>: …`
 * (ours, `tool_search`) or `- <name> - …` (2.36); a `searchTools()` result is
 * JSON with a `"name"` per hit.
 */
export function rankedKeys(text: string, names: Map<string, string>): string[] {
  const found = [
    ...text.matchAll(/^- ([^\s:]+)/gm),
    ...text.matchAll(/"name":\s*"(mcp__[A-Za-z0-9_]+)"/g),
  ].sort((a, b) => a.index - b.index);
  const keys: string[] = [];
  for (const match of found) {
    const key = names.get(match[1]!);
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  return keys;
}
