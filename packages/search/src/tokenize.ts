/**
 * Text and name tokenisation for search. Names are split on `_`, `-`, spaces,
 * punctuation, camelCase and letter/digit boundaries; a word mixing letters
 * and digits (`r2`, `d1`, `3g`) is kept whole as well, since those are often
 * product names.
 */
import { stemmer } from "stemmer";

enum Kind {
  Other = 0,
  Lower = 1,
  Upper = 2,
  Digit = 3,
}

function kindOf(code: number): Kind {
  if (code >= 97 && code <= 122) return Kind.Lower;
  if (code >= 65 && code <= 90) return Kind.Upper;
  if (code >= 48 && code <= 57) return Kind.Digit;
  return Kind.Other;
}

/** Splits text into lower-case word tokens (no stemming, no stop-word removal). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  let wordStart = -1;
  let partStart = -1;
  let parts = 0;
  let hasDigit = false;
  let hasLetter = false;
  const endWord = (end: number) => {
    if (wordStart < 0) return;
    out.push(text.slice(partStart, end).toLowerCase());
    parts++;
    if (parts > 1 && hasDigit && hasLetter && end - wordStart <= 8)
      out.push(text.slice(wordStart, end).toLowerCase());
    wordStart = -1;
  };
  let previous = Kind.Other;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? kindOf(text.charCodeAt(i)) : Kind.Other;
    if (kind === Kind.Other) {
      endWord(i);
    } else if (wordStart < 0) {
      wordStart = partStart = i;
      parts = 0;
      hasDigit = kind === Kind.Digit;
      hasLetter = !hasDigit;
    } else {
      const next = i + 1 < text.length ? kindOf(text.charCodeAt(i + 1)) : Kind.Other;
      const boundary =
        (kind === Kind.Upper && previous === Kind.Lower) ||
        (kind === Kind.Upper && previous === Kind.Upper && next === Kind.Lower) ||
        (kind === Kind.Digit) !== (previous === Kind.Digit);
      if (boundary) {
        out.push(text.slice(partStart, i).toLowerCase());
        parts++;
        partStart = i;
      }
      if (kind === Kind.Digit) hasDigit = true;
      else hasLetter = true;
    }
    previous = kind;
  }
  return out;
}

/** Lower-case form with separators removed, for `take-screenshot` ≈ `take_screenshot` ≈ `takeScreenshot`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

const stems = new Map<string, string>();

/** Porter stem of a lower-case token, memoised (numbers and short tokens stay as they are). */
export function stem(token: string): string {
  if (token.length <= 3 || /[0-9]/.test(token)) return token;
  let stemmed = stems.get(token);
  if (stemmed === undefined) {
    stemmed = stemmer(token);
    if (stems.size < 50_000) stems.set(token, stemmed);
  }
  return stemmed;
}
