/**
 * Finds the tool a model meant by name: exact prefixed or original name, then
 * the same ignoring case, `-` and `_`; otherwise up to three suggestions.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { normalizeName } from "./tokenize.js";

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
  const suggestions = pool
    .map((tool) => ({ tool, distance: editDistance(wanted, normalizeName(tool.prefixedName)) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map((s) => s.tool);
  return { suggestions };
}

/** Levenshtein distance, two rows of memory. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
