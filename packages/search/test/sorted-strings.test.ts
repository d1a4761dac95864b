import { describe, expect, it } from "vitest";
import { compareField, lowerBound } from "../src/text/sorted-strings.js";

describe("sorted strings", () => {
  it("finds where a key is or would be", () => {
    const words = ["apple", "banana", "cherry"];
    for (const [key, at] of [
      ["apple", 0],
      ["b", 1],
      ["banana", 1],
      ["c", 2],
      ["zebra", 3],
      ["", 0],
    ] as const)
      expect(lowerBound(words, key)).toBe(at);
    expect(lowerBound([], "a")).toBe(0);
  });

  it("compares a field of ASCII bytes with a key as JavaScript's < compares the strings", () => {
    const fields = ["", "a", "ab", "abc", "abd", "b", "get_rid_of", "zz"];
    const keys = [...fields, "aa", "abcd", "café", "検索", "A", "~"];
    const sign = (n: number) => Math.sign(n);
    for (const field of fields) {
      // The field in the middle of a line, ended by "|" then more text, and as the data's last bytes.
      for (const [bytes, at] of [
        [Buffer.from(`x\n${field}|rest\n`), 2],
        [Buffer.from(`x\n${field}`), 2],
      ] as const) {
        for (const key of keys) {
          const expected = field < key ? -1 : field > key ? 1 : 0;
          expect([field, key, sign(compareField(bytes, at, key, 0x7c))]).toEqual([field, key, expected]);
        }
      }
    }
  });
});
