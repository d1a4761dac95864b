/**
 * Server-level context as a signal of its own: what a server says about itself
 * (its title, description and `initialize` instructions, handed in by the host
 * per server as `serverContext`) is one short document per server, and the
 * query's words are scored against those documents with BM25 (rarity counted
 * over the servers that have such a text). Each matched tool then gains
 * `weight` × the query's best lexical score × its server's score ÷ the best
 * server's. In "Get line 10 of /root/txt/Android.txt" no tool name says
 * "line", but the text editor server describes itself as "line-oriented text
 * file editing"; in "Find today's top LLM-related news" the Hacker News
 * server's title holds "news" where its tools say "stories". It only raises
 * tools the words already found, and a host that passes no context changes
 * nothing. The same text also joins its tools' meaning vectors (`semantic-score.ts`).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { QueryGroup } from "../query/query-terms.js";
import { stem, tokenize } from "../text/tokenize.js";
import { isStopWord } from "../text/vocabulary.js";

/** Per server name, what the server says about itself (title, description, instructions), as plain text. */
export type ServerContext = Readonly<Record<string, string>>;

/** Text read per server at most (instructions can be long; their start says what the server is for). */
const MAX_CONTEXT_CHARS = 2_000;
const K1 = 1.2;
const B = 0.75;

export interface ServerContextSignal {
  /** Adds the signal to `hits` in place; `groupWeights` are the query words' key-concept weights. */
  apply(
    hits: readonly { doc: number; score: number }[],
    groups: readonly QueryGroup[],
    groupWeights: readonly number[],
  ): void;
}

const NONE: ServerContextSignal = { apply() {} };

export function createServerContext(
  tools: readonly ToolMetadata[],
  context: ServerContext | undefined,
  weight: number,
): ServerContextSignal {
  if (!context || weight <= 0) return NONE;
  const servers = [...new Set(tools.map((tool) => tool.server))];
  const docs = servers.map((server) => termCounts(contextText(context, server) ?? ""));
  const lengths = docs.map((doc) => [...doc.values()].reduce((a, b) => a + b, 0));
  const described = lengths.filter((length) => length > 0).length;
  if (described === 0) return NONE;
  const averageLength = lengths.reduce((a, b) => a + b, 0) / described;
  const serverIndex = new Map(servers.map((server, i) => [server, i]));
  const serverOfDoc = Int32Array.from(tools, (tool) => serverIndex.get(tool.server)!);
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const n = df.get(term) ?? 0;
    return n === 0 ? 0 : Math.log(1 + (described - n + 0.5) / (n + 0.5));
  };
  const serverScores = (groups: readonly QueryGroup[], groupWeights: readonly number[]) => {
    const scores = new Float64Array(servers.length);
    groups.forEach((group, g) => {
      // The word itself (its stem), not its expansions: a server's own words say what it is for.
      const term = group[0]?.terms[0];
      const rarity = term ? idf(term) : 0;
      if (rarity === 0) return;
      docs.forEach((doc, s) => {
        const tf = doc.get(term!);
        if (!tf) return;
        const saturated = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[s]!) / averageLength));
        scores[s]! += rarity * saturated * (groupWeights[g] ?? 1);
      });
    });
    return scores;
  };
  return {
    apply(hits, groups, groupWeights) {
      if (hits.length === 0) return;
      const scores = serverScores(groups, groupWeights);
      const top = Math.max(...scores);
      if (!(top > 0)) return;
      let best = 0;
      for (const hit of hits) best = Math.max(best, hit.score);
      const scale = (weight * best) / top;
      for (const hit of hits) hit.score += scale * scores[serverOfDoc[hit.doc]!]!;
    },
  };
}

/** The part of a server's text that is read (its start says what the server is for). */
export function contextText(context: ServerContext | undefined, server: string): string | undefined {
  // Own entries only: a server named like an object's member ("constructor") has no text unless given one.
  const text = context && Object.hasOwn(context, server) ? context[server] : undefined;
  return typeof text === "string" ? text.slice(0, MAX_CONTEXT_CHARS) : undefined;
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of tokenize(text)) {
    if (isStopWord(word)) continue;
    const term = stem(word);
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}
