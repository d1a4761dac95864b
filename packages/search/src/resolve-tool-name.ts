/**
 * Finds the tool a model meant by name: exact prefixed or original name, then
 * the same ignoring case, `-` and `_`; otherwise the three closest names (by
 * edit distance to the prefixed or original name, or to its words in any order).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { editDistance } from "./edit-distance.js";
import { normalizeName, tokenize } from "./tokenize.js";

export type ResolveResult =
  | { match: ToolMetadata }
  | { ambiguous: ToolMetadata[] }
  | { suggestions: ToolMetadata[] };

export function resolveToolName(
  name: string,
  tools: readonly ToolMetadata[],
  server?: string,
): ResolveResult {
  const pool = server ? tools.filter((t) => t.server === server) : tools;
  const exact = pool.find((t) => t.prefixedName === name);
  if (exact) return { match: exact };
  const byOriginal = pool.filter((t) => t.name === name);
  if (byOriginal.length === 1) return { match: byOriginal[0]! };
  if (byOriginal.length > 1) return { ambiguous: byOriginal };
  const wanted = normalizeName(name);
  const fuzzy = pool.filter(
    (t) => normalizeName(t.prefixedName) === wanted || normalizeName(t.name) === wanted,
  );
  if (fuzzy.length === 1) return { match: fuzzy[0]! };
  if (fuzzy.length > 1) return { ambiguous: fuzzy };
  const wantedWords = sortedWords(name);
  const suggestions = pool
    .map((tool) => ({
      tool,
      distance: Math.min(
        editDistance(wanted, normalizeName(tool.prefixedName)),
        editDistance(wanted, normalizeName(tool.name)),
        editDistance(wantedWords, sortedWords(tool.name)) + 1,
      ),
    }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map((s) => s.tool);
  return { suggestions };
}

/** The words of a name in sorted order, so `channels_list` ≈ `list_channels`. */
function sortedWords(name: string): string {
  return tokenize(name).sort().join("");
}
