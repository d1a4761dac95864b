import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSearchIndex, englishWordVectors, rankTools } from "../src/index.js";
import { catalog } from "./catalog-fixture.js";

const cosine = (a: Int8Array, b: Int8Array) => {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
  return dot / (127 * 127);
};

describe("the English word vectors", () => {
  it("hold common words as unit vectors, and nothing for a non-word", () => {
    const vectors = englishWordVectors();
    expect(vectors.dims).toBe(100);
    const refund = vectors.vector("refund")!;
    expect(refund).toHaveLength(100);
    expect(cosine(refund, refund)).toBeCloseTo(1, 1);
    expect(vectors.vector("qzxvplk")).toBeUndefined();
  });

  it("keep their words as ASCII letters, each block's start where the first line says", () => {
    const text = readFileSync(new URL("../src/data/word-vectors.txt", import.meta.url), "latin1");
    const [header = "", ...lines] = text.trimEnd().split("\n");
    const [dims, perBlock, ...starts] = header.split(" ").map(Number);
    expect([dims, perBlock]).toEqual([100, 16]);
    expect(lines.every((word) => /^[a-z]{2,}$/.test(word))).toBe(true);
    const words = text.slice(header.length + 1);
    expect(starts).toHaveLength(Math.ceil(lines.length / perBlock!));
    starts.forEach((start, block) => {
      expect(start === 0 || words[start - 1] === "\n").toBe(true);
      expect(words.slice(start, words.indexOf("\n", start))).toBe(lines[block * perBlock!]);
    });
  });

  it("find every word of the data at its own row (the words are sorted for a binary search)", () => {
    const [, ...words] = readFileSync(new URL("../src/data/word-vectors.txt", import.meta.url), "utf8")
      .trimEnd()
      .split("\n");
    const bytes = readFileSync(new URL("../src/data/word-vectors.bin", import.meta.url));
    expect(words).toHaveLength(bytes.length / 100);
    expect(words.every((word, row) => row === 0 || words[row - 1]! < word)).toBe(true);
    const vectors = englishWordVectors();
    words.forEach((word, row) => {
      expect(Buffer.from(vectors.vector(word)!).equals(bytes.subarray(row * 100, (row + 1) * 100))).toBe(
        true,
      );
    });
    for (const absent of ["", "a", "zzzzzz", "aaaa", "screenshotting"])
      expect(vectors.vector(absent)).toBeUndefined();
  });

  it("put words of like meaning closer than unrelated ones", () => {
    const v = englishWordVectors();
    const [refund, payment, database] = ["refund", "payment", "database"].map((w) => v.vector(w)!);
    expect(cosine(refund!, payment!)).toBeGreaterThan(cosine(refund!, database!) + 0.3);
  });
});

describe("reordering matches by meaning", () => {
  const first = (query: string, wordVectors?: false) =>
    rankTools(query, createSearchIndex(catalog, wordVectors === false ? { wordVectors } : {}), { limit: 3 })
      .hits[0]?.tool.name;

  it("ranks the tool that does what a plain-words query means above one that shares a word", () => {
    // "line" and "development" are nowhere in create_branch's text; a Slack tool's text has "line".
    expect(first("new line of development", false)).toBe("slack_post_message");
    expect(first("new line of development")).toBe("create_branch");
    expect(first("read a document", false)).toBe("slack_get_channel_history");
    expect(first("read a document")).toBe("get_file_contents");
  });

  it("never adds a tool the words did not match, and keeps the count of matches", () => {
    const index = createSearchIndex(catalog);
    const plain = createSearchIndex(catalog, { wordVectors: false });
    for (const query of ["new line of development", "screenshot", "zzz unknown words"]) {
      const a = rankTools(query, index, { limit: 50 });
      const b = rankTools(query, plain, { limit: 50 });
      expect(a.total).toBe(b.total);
      expect(new Set(a.hits.map((h) => h.tool.prefixedName))).toEqual(
        new Set(b.hits.map((h) => h.tool.prefixedName)),
      );
    }
  });

  it("leaves an exact name first", () => {
    expect(first("take_screenshot")).toBe("take_screenshot");
    expect(first("create_branch")).toBe("create_branch");
  });
});
