/**
 * Finds the tool a model meant by name: exact prefixed or original name, then
 * the same ignoring case, `-` and `_`; otherwise the three closest names (by
 * edit distance to the prefixed or original name, or to its words in any order).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { editDistance } from "./text/edit-distance.js";
import { normalizeName, tokenize } from "./text/tokenize.js";

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

/**
 * Why `name` did not pick one tool, for the error a model reads: the matches
 * are on several servers (passing `server` settles it), or one server has
 * several entries whose names differ only in case and punctuation (or a tool
 * and a prompt of one name), which only their exact names tell apart.
 */
export function ambiguityMessage(name: string, matches: readonly ToolMetadata[]): string {
  const servers = new Set(matches.map((t) => t.server));
  const listed = (t: ToolMetadata) =>
    t.prefixedName === t.name ? `${t.prefixedName} (${t.kind})` : `${t.prefixedName} (${t.kind} "${t.name}")`;
  if (servers.size > 1) {
    const options = matches.map((t) => `${t.prefixedName} (server ${t.server})`).join(", ");
    return `Tool "${name}" exists on several servers: ${options}. Pass server, or use one of these names.`;
  }
  const [server] = servers;
  return (
    `Tool "${name}" matches ${matches.length} entries of server ${server} whose names differ only in case or punctuation` +
    ` (or are a tool and a prompt of one name): ${matches.map(listed).join(", ")}. Use one of these exact names.`
  );
}

/** The words of a name in sorted order, so `channels_list` ≈ `list_channels`. */
function sortedWords(name: string): string {
  return tokenize(name).sort().join("");
}
