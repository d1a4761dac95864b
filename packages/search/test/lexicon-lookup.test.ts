/**
 * The built-in lexicon finds each stem in its data by binary search over
 * the sorted lines (no table of all 11,000 is made): every stem of the data
 * gives what its own line says, and a stem not in it (before the first,
 * between two, after the last, a phrase, a word with letters beyond ASCII)
 * gives nothing. The data is ASCII: the lookup reads its bytes as characters.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entryInBytes, entryInText, LEXICON_FILE } from "../src/data/lexicon.js";
import { englishLexicon } from "../src/index.js";

const lines = readFileSync(new URL("../src/data/lexicon-data.txt", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean);
const stems = lines.map((line) => line.slice(0, line.indexOf("|")));

describe("the built-in lexicon's lookup", () => {
  it("has ASCII data (each byte one character: the lookup never decodes the whole file)", () => {
    const bytes = readFileSync(new URL("../src/data/lexicon-data.txt", import.meta.url));
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
  });

  it("has its data sorted by stem, each stem once (the search relies on it)", () => {
    for (let i = 1; i < stems.length; i++) expect(stems[i - 1]! < stems[i]!).toBe(true);
  });

  it("finds every stem of the data with its own line's words", () => {
    const wrong: string[] = [];
    for (const line of lines) {
      const [stem = "", synonyms = "", described = ""] = line.split("|");
      const firstSense = [...new Set(synonyms.split(",")[0]!.split(" ").filter(Boolean))];
      const related = englishLexicon.related(stem).map(([word]) => word);
      const describing = new Set(englishLexicon.describe(stem));
      if (
        related.slice(0, firstSense.length).join(" ") !== firstSense.join(" ") ||
        described.split(" ").some((word) => word && !describing.has(word))
      )
        wrong.push(stem);
    }
    expect(wrong).toEqual([]);
  });

  it("finds each line alike in the bytes (a search's few words) and in the decoded text (an index build)", () => {
    const bytes = readFileSync(LEXICON_FILE);
    const text = bytes.toString("latin1");
    for (const line of lines) {
      const [stem = "", synonyms, described] = line.split("|");
      expect([stem, entryInBytes(bytes, stem)]).toEqual([stem, { synonyms, described }]);
      expect([stem, entryInText(text, stem)]).toEqual([stem, { synonyms, described }]);
    }
    for (const absent of ["\u0001", `${stems[0]}0`, `${stems.at(-1)}z`, "get_rid_of_it", "café", "検索"]) {
      expect(entryInBytes(bytes, absent)).toBeUndefined();
      expect(entryInText(text, absent)).toBeUndefined();
    }
  });

  it("finds nothing for a stem the data does not hold", () => {
    // Before the first stem, between two, after the last, a phrase.
    const absent = ["\u0001", `${stems[0]}0`, `${stems.at(-1)}z`, "get_rid_of_it", "café", "検索"];
    for (const stem of absent) {
      expect(stems).not.toContain(stem);
      expect(englishLexicon.related(stem)).toEqual([]);
      expect(englishLexicon.describe(stem)).toEqual([]);
    }
  });
});
