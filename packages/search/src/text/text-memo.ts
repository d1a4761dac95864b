/**
 * The search terms (stemmed tokens) of a text, kept per distinct text for
 * the process: index builds meet the same strings again — a catalog indexed
 * anew after one server's tools changed, parameter descriptions shared
 * between tools, a session's cached tools analysed in idle time
 * (`prepareSearch`) before its first search builds the index. The arrays
 * handed out are shared: callers never change them.
 */
import { stem, tokenize } from "./tokenize.js";

/**
 * Texts kept at most; past it, texts are analysed but no longer kept. A catalog of a thousand tools
 * has about four thousand distinct texts.
 */
const MAX_TEXTS = 40_000;

const memo = new Map<string, readonly string[]>();

/** `tokenize(text).map(stem)`, kept. */
export function termsOf(text: string): readonly string[] {
  let terms = memo.get(text);
  if (terms === undefined) {
    terms = stemAll(tokenize(text));
    if (memo.size < MAX_TEXTS) memo.set(text, terms);
  }
  return terms;
}

/** `tokens.map(stem)`. */
export function stemAll(tokens: readonly string[]): string[] {
  const terms = new Array<string>(tokens.length);
  for (let i = 0; i < tokens.length; i++) terms[i] = stem(tokens[i]!);
  return terms;
}
