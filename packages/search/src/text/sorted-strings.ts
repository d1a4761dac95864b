/**
 * Lookups in a sorted list of strings (JavaScript's `<` order): where a key
 * is, or would be, found by binary search. The list is an array, or the
 * lines of one text (`TextLines`), read in place rather than split into
 * thousands of strings.
 */

/** A list of strings read by position: an array, or `TextLines`. */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** The first index whose string is not below `key` (`sorted.length` when all are). */
export function lowerBound(sorted: StringList, key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted.at(mid)! < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The lines of a text from `from` on, each ended by a newline (a last line without one counts too). */
export class TextLines implements StringList {
  readonly length: number;
  /** Where each line starts, and one past the end of the last. */
  private readonly starts: Int32Array;

  constructor(
    private readonly text: string,
    from = 0,
  ) {
    const starts: number[] = [];
    let at = from;
    while (at < text.length) {
      starts.push(at);
      const end = text.indexOf("\n", at);
      at = end < 0 ? text.length + 1 : end + 1;
    }
    // One past the last line's newline (its end as if it had one, when it has none).
    starts.push(Math.max(at, from));
    this.starts = Int32Array.from(starts);
    this.length = starts.length - 1;
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.length) return undefined;
    return this.text.slice(this.starts[index]!, this.starts[index + 1]! - 1);
  }
}
