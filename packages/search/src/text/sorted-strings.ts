/**
 * Lookups in sorted strings (JavaScript's `<` order): where a key is, or
 * would be, in a sorted list; how a field of a sorted ASCII data file
 * compares with a key, read in place.
 */

/** The first index whose string is not below `key` (`sorted.length` when all are). */
export function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The byte that ends a line of a data file. */
export const NEWLINE = 0x0a;

/**
 * How the ASCII field at `at` in `bytes`, ended by the byte `end` (or the bytes' end), compares with
 * `key` in JavaScript's `<` order: below 0 when the field sorts first, 0 when they are the same, above 0
 * when `key` does. Nothing is decoded: a binary search over a sorted data file makes no strings.
 */
export function compareField(bytes: Uint8Array, at: number, key: string, end: number): number {
  for (let i = 0; ; i++) {
    const byte = at + i < bytes.length ? bytes[at + i]! : end;
    if (i === key.length) return byte === end ? 0 : 1;
    if (byte === end) return -1;
    const difference = byte - key.charCodeAt(i);
    if (difference !== 0) return difference;
  }
}

/** Where the line holding `at` starts: just past the newline before it, or 0 (a loop: lines are short). */
export function lineStart(bytes: Uint8Array, at: number): number {
  let start = at;
  while (start > 0 && bytes[start - 1] !== NEWLINE) start--;
  return start;
}

/** The first index of `byte` at or after `from`, or -1 (a loop: the fields looked for are short). */
export function nextByte(bytes: Uint8Array, byte: number, from: number): number {
  for (let at = from; at < bytes.length; at++) if (bytes[at] === byte) return at;
  return -1;
}
