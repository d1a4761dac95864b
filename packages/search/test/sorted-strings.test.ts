import { describe, expect, it } from "vitest";
import { lowerBound, TextLines } from "../src/text/sorted-strings.js";

describe("sorted strings", () => {
  it("reads a text's lines in place, with or without a last newline, from an offset", () => {
    for (const text of ["3\napple\nbanana\ncherry\n", "3\napple\nbanana\ncherry"]) {
      const lines = new TextLines(text, 2);
      expect(lines.length).toBe(3);
      expect([0, 1, 2, 3, -1].map((i) => lines.at(i))).toEqual([
        "apple",
        "banana",
        "cherry",
        undefined,
        undefined,
      ]);
    }
    expect(new TextLines("3\n", 2).length).toBe(0);
    expect(new TextLines("a\n\nb\n").length).toBe(3);
    expect(new TextLines("a\n\nb\n").at(1)).toBe("");
  });

  it("finds where a key is or would be, in an array and in lines alike", () => {
    const words = ["apple", "banana", "cherry"];
    const lines = new TextLines(`${words.join("\n")}\n`);
    for (const [key, at] of [
      ["apple", 0],
      ["b", 1],
      ["banana", 1],
      ["c", 2],
      ["zebra", 3],
      ["", 0],
    ] as const) {
      expect(lowerBound(words, key)).toBe(at);
      expect(lowerBound(lines, key)).toBe(at);
    }
  });
});
