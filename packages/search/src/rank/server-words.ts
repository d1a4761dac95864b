/**
 * Query words that name a server. "read a file from a github repo" names the
 * product; a tool of another server (`filesystem/read_file`) should not rank
 * above the named server's `get_file_contents` only because coverage forgives
 * one missed word in a long query. A tool is scaled by the share of the
 * query's server-naming words its own server holds: (held + 1) / (named + 1),
 * to the power `serverWords` (0 = off).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { tokenize } from "../text/tokenize.js";

export interface ServerWords {
  /** The factor for each tool, given the query as read; `undefined` when the query names no server. */
  factors(query: string): ((doc: number) => number) | undefined;
}

export function createServerWords(tools: readonly ToolMetadata[], power: number): ServerWords {
  const byServer = new Map<string, ReadonlySet<string>>();
  const ofTool = tools.map((tool) => {
    let words = byServer.get(tool.server);
    if (!words) {
      words = new Set(tokenize(tool.server));
      byServer.set(tool.server, words);
    }
    return words;
  });
  const named = new Set([...byServer.values()].flatMap((words) => [...words]));
  return {
    factors(query) {
      if (power <= 0) return undefined;
      // Words as written, not stems: "new" does not name a server called `news`.
      const words = [...new Set(tokenize(query))].filter((word) => named.has(word));
      if (words.length === 0) return undefined;
      return (doc) => {
        const own = ofTool[doc]!;
        const held = words.filter((word) => own.has(word)).length;
        return ((held + 1) / (words.length + 1)) ** power;
      };
    },
  };
}
