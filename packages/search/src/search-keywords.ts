/**
 * Per-server `searchKeywords`: extra words a tool is found by. Each key is a
 * tool glob with core's one meaning (`matchesToolGlob`: picomatch syntax,
 * case-insensitive, `/` and `.` ordinary, matched against the tool's original
 * or prefixed name; a plain name is a glob that matches itself, `*` covers
 * every tool of the server). Every matching entry contributes.
 */
import { matchesToolGlob, type ToolMetadata } from "@pi-mcp-adapter/core";

/** Server name → that server's `searchKeywords` (core's `SearchKeywordsSetting`: tool glob → extra words). */
export type SearchKeywords = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

/** The keywords that apply to one tool, in config order, without duplicates. */
export function keywordsForTool(tool: ToolMetadata, keywords: SearchKeywords | undefined): string[] {
  const entries = keywords?.[tool.server];
  if (!entries) return [];
  const out = new Set<string>();
  for (const [glob, words] of Object.entries(entries)) {
    if (matchesToolGlob(glob, tool)) for (const word of words) out.add(word);
  }
  return [...out];
}
