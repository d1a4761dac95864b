/**
 * Exact lookup of a tool by its prefixed name, the name a model copies from
 * search results. The catalog hands out the same array until a listing
 * changes, so one map per array turns the per-call scan over every tool into
 * a map lookup; misses fall back to the full (fuzzy) resolution.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";

const indexes = new WeakMap<readonly ToolMetadata[], Map<string, ToolMetadata>>();

/** The first tool in `tools` whose prefixed name is `name` (as a scan would find it). */
export function findByPrefixedName(tools: readonly ToolMetadata[], name: string): ToolMetadata | undefined {
  let index = indexes.get(tools);
  if (!index) {
    index = new Map();
    for (const tool of tools) if (!index.has(tool.prefixedName)) index.set(tool.prefixedName, tool);
    indexes.set(tools, index);
  }
  return index.get(name);
}
