import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundText, createFileSpillWriter, stripControlSequences } from "../src/index.js";
import { tempRoot } from "./temp.js";

const utf8 = (s: string) => Buffer.byteLength(s, "utf8");
const lineCount = (s: string) => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));

describe("boundText", () => {
  it("keeps text under the limits inline and writes no file", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const result = await boundText(["short", "text"], {
      maxBytes: 100,
      maxLines: 10,
      spill,
      nameHint: "s-t",
    });
    expect(result).toEqual({ texts: ["short", "text"] });
  });

  it("cuts at the byte limit on a character boundary and spills the full text to a 0600 file in a 0700 dir", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const text = "é".repeat(100); // 200 bytes; a 99-byte cut would split a character
    const result = await boundText([text], { maxBytes: 99, maxLines: 100, spill, nameHint: "srv-tool" });
    expect(result.texts[0]).toBe("é".repeat(49));
    expect(result.spill?.total).toEqual({ bytes: 200, lines: 1 });
    expect(result.spill?.shown).toEqual({ bytes: 98, lines: 1 });
    const file = result.spill?.path ?? "";
    expect(path.basename(file)).toMatch(/^srv-tool-[0-9a-f]{8}\.txt$/);
    expect(await readFile(file, "utf8")).toBe(text);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(result.notice).toBe(
      `[Output truncated: showing 98 B of 200 B (1 of 1 lines). Full text saved to ${file} — read or grep that file for the rest.]`,
    );
  });

  it("cuts at the line limit", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const text = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
    const result = await boundText([text], { maxBytes: 10_000, maxLines: 3, spill, nameHint: "x" });
    expect(result.texts[0]).toBe("line 0\nline 1\nline 2");
    expect(result.notice).toContain("(3 of 10 lines)");
    expect(await readFile(result.spill?.path ?? "", "utf8")).toBe(text);
  });

  it("spills the text of every block, in order, once any block overflows", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const result = await boundText(["first", "second block is long", "third"], {
      maxBytes: 12,
      maxLines: 100,
      spill,
      nameHint: "x",
    });
    expect(result.texts).toEqual(["first", "second", undefined]);
    expect(await readFile(result.spill?.path ?? "", "utf8")).toBe("first\nsecond block is long\nthird");
  });

  it("says so in the text when the spill file cannot be written, and still cuts", async () => {
    const spill = {
      create: async () => {
        throw new Error("disk full");
      },
    };
    const result = await boundText(["x".repeat(50)], { maxBytes: 10, maxLines: 5, spill, nameHint: "x" });
    expect(result.texts[0]).toBe("x".repeat(10));
    expect(result.notice).toContain("The full text could not be saved: disk full.");
  });

  it("for any text: bounded inline output, never throws, and the file holds the whole sanitized text", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const anyText = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes).toString("utf8")),
      fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
        maxLength: 300,
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(anyText, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 8 }),
        async (texts, maxBytes, maxLines) => {
          const result = await boundText(texts, { maxBytes, maxLines, spill, nameHint: "prop" });
          const shown = result.texts.filter((t): t is string => t !== undefined);
          const joined = shown.join("\n");
          expect(utf8(joined)).toBeLessThanOrEqual(maxBytes);
          expect(lineCount(joined)).toBeLessThanOrEqual(maxLines);
          const sanitized = texts.map(stripControlSequences);
          result.texts.forEach((t, i) => {
            if (t !== undefined) expect(sanitized[i]!.startsWith(t)).toBe(true);
          });
          if (result.spill) {
            expect(await readFile(result.spill.path ?? "", "utf8")).toBe(
              sanitized.filter((t) => t !== "").join("\n"),
            );
          } else {
            expect(shown).toEqual(sanitized.filter((t) => t !== ""));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
