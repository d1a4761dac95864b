/**
 * Text and name tokenisation for search, for every script. Tokens are for
 * matching only (display text is never touched): NFKC-normalised, case-folded,
 * accents removed. A word is a run of letters, digits and combining marks of
 * any script. Words are split on camelCase and letter/digit boundaries, and a
 * word mixing letters and digits (`r2`, `d1`, `3g`) is kept whole as well,
 * since those are often product names. Scripts written without spaces (Han,
 * Hiragana, Katakana, Thai, …) are split into words by `Intl.Segmenter`, or
 * into character bigrams where it is missing; Hangul words always give
 * bigrams (their particles and endings are written onto the word).
 */
import { stemmer } from "stemmer";

/** Character kinds (plain numbers: this loop runs over every character of every tool). */
type Kind = number;
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** A letter without case (Arabic, Hebrew, Devanagari, …): continues a word like a lower-case one. */
const CASELESS = 4;
/** A combining mark: continues whatever letter it follows. */
const MARK = 5;
/** A letter of a script written without spaces between words. */
const SPACELESS = 6;
/** A Hangul syllable or jamo. */
const HANGUL = 7;

const SPACELESS_SCRIPT =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
const HANGUL_SCRIPT = /\p{scx=Hangul}/u;
const UPPER_LETTER = /[\p{Lu}\p{Lt}]/u;
const LOWER_LETTER = /\p{Ll}/u;
const LETTER = /\p{L}/u;
const DIGIT_CHAR = /\p{N}/u;
const MARK_CHAR = /\p{M}/u;
const HIRAGANA = /^\p{sc=Hiragana}$/u;
const NON_ASCII = /[\u0080-\uffff]/;

/** Kinds of BMP code points past ASCII, computed on first sight (0 = not yet, else kind + 1). */
const bmpKinds = new Uint8Array(0x10000);

function unicodeKind(code: number): Kind {
  const char = String.fromCodePoint(code);
  if (!LETTER.test(char) && !DIGIT_CHAR.test(char) && !MARK_CHAR.test(char)) return OTHER;
  if (HANGUL_SCRIPT.test(char)) return HANGUL;
  if (SPACELESS_SCRIPT.test(char)) return SPACELESS;
  if (UPPER_LETTER.test(char)) return UPPER;
  if (LOWER_LETTER.test(char)) return LOWER;
  if (DIGIT_CHAR.test(char)) return DIGIT;
  if (MARK_CHAR.test(char)) return MARK;
  return CASELESS;
}

function kindOf(code: number): Kind {
  if (code < 128) {
    if (code >= 97 && code <= 122) return LOWER;
    if (code >= 65 && code <= 90) return UPPER;
    if (code >= 48 && code <= 57) return DIGIT;
    return OTHER;
  }
  if (code > 0xffff) return unicodeKind(code);
  let cached = bmpKinds[code]!;
  if (cached === 0) {
    cached = unicodeKind(code) + 1;
    bmpKinds[code] = cached;
  }
  return cached - 1;
}

/** What splits a run of a spaceless script into words (`Intl.Segmenter` with granularity "word"). */
export interface WordSegmenter {
  segment(text: string): Iterable<{ segment: string; isWordLike?: boolean }>;
}

/** Case folding plus accent removal: `Créer` → `creer`, `Straße` → `strasse`, `ΟΔΟΣ` → `οδοσ`. */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (!NON_ASCII.test(lower)) return lower;
  const decomposed = lower.normalize("NFD");
  // Only the generic combining diacritics go (é → e, ü → u, й → и); marks that are part of a script stay.
  const stripped = decomposed.replace(/[\u0300-\u036f]/g, "");
  const folded = stripped === decomposed ? lower : stripped.normalize("NFC");
  return folded.replace(/ß/g, "ss").replace(/ς/g, "σ");
}

export type Tokenizer = (text: string) => string[];

/**
 * A tokenizer splitting spaceless scripts with the segmenter `segmenter()`
 * gives on first need, or into character bigrams when it gives `undefined`
 * (as on a runtime without `Intl.Segmenter`).
 */
export function createTokenizer(segmenter: () => WordSegmenter | undefined = systemSegmenter): Tokenizer {
  let words: WordSegmenter | undefined | null = null;
  const splitSpaceless = (run: string, out: string[]) => {
    if (words === null) words = segmenter();
    if (!words) return pushBigrams(run, out);
    for (const { segment, isWordLike } of words.segment(run)) {
      // A lone hiragana is a particle or an inflection (を, の, に, し), not a word to search for.
      if (isWordLike === false || HIRAGANA.test(segment)) continue;
      out.push(segment);
    }
  };
  // ASCII text needs no normalising; the first other character restarts the scan on the NFKC form.
  return (input: string) => scan(input, false) ?? scan(input.normalize("NFKC"), true)!;

  function scan(text: string, normalized: boolean): string[] | undefined {
    const out: string[] = [];
    const length = text.length;
    let wordStart = -1;
    let partStart = -1;
    let parts = 0;
    let hasDigit = false;
    let hasLetter = false;
    let folds = false;
    let runStart = -1;
    let runKind = OTHER;
    let previous = OTHER;
    for (let i = 0; i <= length; ) {
      let code = i < length ? text.charCodeAt(i) : 32;
      let width = 1;
      if (code >= 128) {
        if (!normalized) return undefined;
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
          code = text.codePointAt(i)!;
          if (code > 0xffff) width = 2;
        }
      }
      let kind = kindOf(code);
      // A combining mark belongs to the letter before it (and to a run of a spaceless script); alone
      // (a variation selector after an emoji, say) it is no word.
      if (kind === MARK) kind = runStart >= 0 ? runKind : wordStart < 0 ? OTHER : MARK;
      if (runStart >= 0 && kind !== runKind) {
        const run = text.slice(runStart, i);
        if (runKind === HANGUL) pushBigrams(run, out);
        else splitSpaceless(run, out);
        runStart = -1;
      }
      if (wordStart >= 0 && (kind === OTHER || kind >= SPACELESS)) {
        // The end of a word: its last part, and the whole of a short word mixing letters and digits.
        out.push(folds ? foldCase(text.slice(partStart, i)) : text.slice(partStart, i).toLowerCase());
        if (parts > 0 && hasDigit && hasLetter && i - wordStart <= 8)
          out.push(folds ? foldCase(text.slice(wordStart, i)) : text.slice(wordStart, i).toLowerCase());
        wordStart = -1;
      }
      if (kind === OTHER) {
        // Nothing to do: separators only end words and runs.
      } else if (kind >= SPACELESS) {
        if (runStart < 0) {
          runStart = i;
          runKind = kind;
        }
      } else if (wordStart < 0) {
        wordStart = partStart = i;
        parts = 0;
        hasDigit = kind === DIGIT;
        hasLetter = !hasDigit;
        folds = code >= 128;
      } else if (kind === MARK) {
        folds = true;
        i += width;
        continue;
      } else {
        if (code >= 128) folds = true;
        const boundary =
          (kind === DIGIT) !== (previous === DIGIT) ||
          (kind === UPPER &&
            (previous === LOWER ||
              previous === CASELESS ||
              (previous === UPPER && nextKind(text, i + width) === LOWER)));
        if (boundary) {
          out.push(folds ? foldCase(text.slice(partStart, i)) : text.slice(partStart, i).toLowerCase());
          parts++;
          partStart = i;
        }
        if (kind === DIGIT) hasDigit = true;
        else hasLetter = true;
      }
      previous = kind;
      i += width;
    }
    return out;
  }
}

function nextKind(text: string, i: number): Kind {
  return i < text.length ? kindOf(text.codePointAt(i)!) : OTHER;
}

/** Overlapping pairs of characters (a run of one character stays whole). */
function pushBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) out.push(run);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** `Intl.Segmenter` by word, where the runtime has it. */
function systemSegmenter(): WordSegmenter | undefined {
  return typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter(undefined, { granularity: "word" })
    : undefined;
}

/** Splits text into folded word tokens (no stemming, no stop-word removal). */
export const tokenize: Tokenizer = createTokenizer();

/** Folded form with separators removed, for `take-screenshot` ≈ `take_screenshot` ≈ `takeScreenshot`. */
export function normalizeName(name: string): string {
  if (!NON_ASCII.test(name)) return name.toLowerCase().replace(/[^a-z0-9]/g, "");
  // Marks stay with their letter; stray ones (a variation selector after an emoji) go with the separators.
  return foldCase(name.normalize("NFKC")).replace(/[^\p{L}\p{N}\p{M}]|(?<![\p{L}\p{N}\p{M}])\p{M}+/gu, "");
}

const stems = new Map<string, string>();

/** Porter stem of a lower-case token, memoised (numbers, short and non-ASCII tokens stay as they are). */
export function stem(token: string): string {
  if (token.length <= 3 || /[^a-z]/.test(token)) return token;
  let stemmed = stems.get(token);
  if (stemmed === undefined) {
    stemmed = stemmer(token);
    if (stems.size < 50_000) stems.set(token, stemmed);
  }
  return stemmed;
}
