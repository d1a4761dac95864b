/**
 * Per-server `searchKeywords`: extra words a tool is found by. Each key is a
 * tool glob with core's one meaning (`matchesToolGlob`: picomatch syntax,
 * case-insensitive, `/` and `.` ordinary, matched against the tool's original
 * or prefixed name; a plain name is a glob that matches itself, `*` covers
 * every tool of the server). Every matching entry contributes. Keywords count
 * like description words (in their own field of the index), and a query that
 * contains a multi-word keyword as an exact phrase adds a bonus on top.
 */
import { matchesToolGlob, type ToolMetadata } from "@pi-mcp-adapter/core";
import { tokenize } from "../text/tokenize.js";

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

/** Score added per word of a multi-word keyword the query contains as an exact phrase. */
const PHRASE_BONUS_PER_WORD = 3;
/** Query words looked at for phrases (as many as ranking uses at most). */
const MAX_PHRASE_QUERY_WORDS = 32;

/** The multi-word keywords of every tool, for the exact-phrase boost. */
export interface KeywordPhrases {
  /** Tool (by index) → bonus, for the tools with a multi-word keyword that `query` contains word for word. */
  match(query: string): ReadonlyMap<number, number>;
}

const NO_PHRASES: ReadonlyMap<number, number> = new Map();

/**
 * Indexes the multi-word keywords of each tool (`keywordsByTool[i]` for tool
 * `i`). A phrase matches when the query holds its words in order and next to
 * each other, compared as tokens (any case, accents, separators: `Money-Back`
 * is `money back`); the longest matching phrase of a tool sets its bonus.
 */
export function indexKeywordPhrases(keywordsByTool: readonly (readonly string[])[]): KeywordPhrases {
  const byPhrase = new Map<string, number[]>();
  let longest = 0;
  keywordsByTool.forEach((keywords, doc) => {
    for (const keyword of keywords) {
      const words = tokenize(keyword);
      if (words.length < 2) continue;
      const key = words.join(" ");
      const docs = byPhrase.get(key);
      if (!docs) byPhrase.set(key, [doc]);
      else if (docs[docs.length - 1] !== doc) docs.push(doc);
      longest = Math.max(longest, words.length);
    }
  });
  return {
    match(query) {
      if (byPhrase.size === 0) return NO_PHRASES;
      const words = tokenize(query).slice(0, MAX_PHRASE_QUERY_WORDS);
      const bonus = new Map<number, number>();
      for (let start = 0; start < words.length; start++) {
        for (let length = 2; length <= longest && start + length <= words.length; length++) {
          for (const doc of byPhrase.get(words.slice(start, start + length).join(" ")) ?? []) {
            bonus.set(doc, Math.max(bonus.get(doc) ?? 0, PHRASE_BONUS_PER_WORD * length));
          }
        }
      }
      return bonus;
    },
  };
}
