/**
 * Lookups in a sorted list of strings (JavaScript's `<` order): where a key
 * is, or would be, found by binary search.
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
