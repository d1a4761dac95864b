import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripControlSequences } from "../src/index.js";
import { stripControlSequencesInChunks } from "../src/strip-control.js";

const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|\r(?!\n)/;

describe("stripControlSequences", () => {
  it("removes colours, cursor moves, OSC titles and hyperlinks but keeps their text", () => {
    const input =
      "\u001b[31mred\u001b[0m \u001b[2J\u001b[Hhome \u001b]0;title\u0007\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\";
    expect(stripControlSequences(input)).toBe("red home link");
  });

  it("removes bidi overrides and isolates that reorder what a reader sees", () => {
    expect(stripControlSequences("abc\u202edcba\u202c \u2066x\u2069")).toBe("abcdcba x");
  });

  it("keeps newlines, tabs and CRLF, and turns a lone carriage return into a newline", () => {
    expect(stripControlSequences("a\tb\r\nc\rd\u0007\u0000")).toBe("a\tb\r\nc\nd");
  });

  it("leaves nothing a terminal would act on, for any input", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        (s) => {
          expect(stripControlSequences(s)).not.toMatch(UNSAFE);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("stripControlSequencesInChunks", () => {
  const pieces = fc.constantFrom(
    "plain ",
    "\n",
    "\r\n",
    "\r",
    "é",
    "😀",
    "\u001b[1;31m",
    "\u001b]0;t\u0007",
    "\u202e",
    "\u0000",
    "x".repeat(100),
  );

  it("gives the same text as stripping the whole string, whatever the chunk size", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 200 }), fc.integer({ min: 300, max: 2000 }), (list, size) => {
        const text = list.join("");
        expect([...stripControlSequencesInChunks(text, size)].join("")).toBe(stripControlSequences(text));
      }),
      { numRuns: 300 },
    );
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(1000);
    for (const chunk of stripControlSequencesInChunks(text, 301)) expect(chunk).not.toMatch(/\ufffd/);
    expect([...stripControlSequencesInChunks(text, 301)].join("")).toBe(text);
  });
});
