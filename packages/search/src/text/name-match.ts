/**
 * The bonus for a query that spells a tool's name: exact (any casing or
 * separators), contained in the name, or a near spelling of it.
 */
import { withinEdits } from "./edit-distance.js";

const EXACT_NAME_BONUS = 30;
const NAME_CONTAINS_BONUS = 8;
const NEAR_NAME_BONUS = 12;

export function nameBonus(
  query: string,
  names: readonly [string, string],
  nameLike: boolean,
  queryLetters: Uint8Array,
  /** The names' letter counts, read only for a near spelling (they may be counted on first read). */
  forms: { readonly letters: readonly [Uint8Array, Uint8Array] },
): number {
  let bonus = 0;
  for (let k = 0; k < 2; k++) {
    const name = names[k]!;
    if (name === query) return EXACT_NAME_BONUS;
    if (query.length >= 5 && name.includes(query)) {
      bonus = Math.max(bonus, (NAME_CONTAINS_BONUS * query.length) / name.length);
    } else if (nameLike && Math.abs(name.length - query.length) <= 2) {
      const max = query.length >= 10 ? 2 : 1;
      if (letterDistance(queryLetters, forms.letters[k]!) <= 2 * max && withinEdits(query, name, max)) {
        bonus = Math.max(bonus, NEAR_NAME_BONUS - 3 * (withinEdits(query, name, max - 1) ? max - 1 : max));
      }
    }
  }
  return bonus;
}

/** Counts of a-z and 0-9 in a compact name; an edit changes the counts by at most 2. */
export function letterCounts(text: string): Uint8Array {
  const counts = new Uint8Array(36);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const slot = c >= 97 ? c - 97 : c - 48 + 26;
    if (slot >= 0 && slot < 36 && counts[slot]! < 255) counts[slot]!++;
  }
  return counts;
}

function letterDistance(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < 36; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum;
}
