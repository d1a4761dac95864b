/**
 * Baseline (b): BM25 through MiniSearch, the usual off-the-shelf choice:
 * prefixed name boosted 3x over the description, plus server and parameter
 * names, with MiniSearch's default tokenizer, prefix and light fuzzy search.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import MiniSearch from "minisearch";

interface Doc {
  id: number;
  name: string;
  server: string;
  description: string;
  params: string;
}

export function createBm25Baseline(tools: readonly ToolMetadata[]) {
  const mini = new MiniSearch<Doc>({
    fields: ["name", "server", "description", "params"],
    storeFields: [],
    // Names need splitting on `_`/`-` to be searchable at all; MiniSearch's default splits on those.
    searchOptions: { boost: { name: 3, server: 1.5 }, prefix: true, fuzzy: 0.2, combineWith: "OR" },
  });
  mini.addAll(
    tools.map((tool, id) => ({
      id,
      name: tool.prefixedName,
      server: tool.server,
      description: tool.description,
      params: Object.keys((tool.inputSchema.properties ?? {}) as object).join(" "),
    })),
  );
  return (query: string, limit = 10): ToolMetadata[] =>
    mini
      .search(query)
      .slice(0, limit)
      .map((hit) => tools[hit.id as number]!);
}
