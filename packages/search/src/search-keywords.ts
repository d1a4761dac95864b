/**
 * Per-server `searchKeywords`: extra words a tool is found by. Keys match the
 * tool's original name, its prefixed name, or a glob (`*` covers every tool of
 * the server); every matching entry contributes.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";

/** Server name → (tool name, prefixed name or glob → extra words). */
export type SearchKeywords = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

const globs = new Map<string, RegExp>();

/** `*` matches any run of characters, `?` one character; everything else is literal. Case-insensitive. */
export function globToRegExp(glob: string): RegExp {
  let re = globs.get(glob);
  if (!re) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
    re = new RegExp(`^${body}$`, "i");
    globs.set(glob, re);
  }
  return re;
}

/** The keywords that apply to one tool, in config order, without duplicates. */
export function keywordsForTool(tool: ToolMetadata, keywords: SearchKeywords | undefined): string[] {
  const entries = keywords?.[tool.server];
  if (!entries) return [];
  const out = new Set<string>();
  for (const [key, words] of Object.entries(entries)) {
    const matches =
      key === tool.name ||
      key === tool.prefixedName ||
      (/[*?]/.test(key) && (globToRegExp(key).test(tool.name) || globToRegExp(key).test(tool.prefixedName)));
    if (matches) for (const word of words) out.add(word);
  }
  return [...out];
}
