import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundText, createFileSpillWriter } from "../src/index.js";
import { jsonSizeWithin } from "../src/json-chunks.js";
import { smallTextResult } from "../src/small-text-result.js";
import { tempRoot } from "./temp.js";

const limits = { maxBytes: 300, maxLines: 6, detailsMaxBytes: 400 };

describe("smallTextResult (the guard's fast path)", () => {
  it("takes a plain echo, and leaves everything unusual to the general path", () => {
    expect(smallTextResult({ content: [{ type: "text", text: "Echo: hi" }] }, limits)).toEqual({
      texts: ["Echo: hi"],
      detailsFit: true,
    });
    const refused = [
      { content: [] },
      { content: [{ type: "text", text: "" }] },
      { content: [{ type: "text", text: "\u001b[31mred" }] },
      { content: [{ type: "text", text: "a\rb" }] },
      { content: [{ type: "text", text: "\ud800" }] },
      { content: [{ type: "text", text: "x".repeat(101) }] },
      { content: [{ type: "text", text: "1\n2\n3\n4\n5\n6\n7" }] },
      { content: [{ type: "text", text: "ok", _meta: {} }] },
      { content: [{ type: "image", data: "", mimeType: "image/png" }] },
      { content: [{ type: "text", text: "ok" }], structuredContent: { a: 1 } },
    ];
    for (const result of refused)
      expect(smallTextResult(result, limits), JSON.stringify(result)).toBeUndefined();
  });

  it("gives exactly what the general path gives, for anything it accepts", async () => {
    await using root = await tempRoot();
    const spill = createFileSpillWriter({ root: root.path });
    const text = fc.oneof(fc.string({ maxLength: 120 }), fc.string({ unit: "binary", maxLength: 60 }));
    const result = fc.record({
      content: fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 4 }),
      isError: fc.boolean(),
    });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(result, async (r) => {
        const small = smallTextResult(r, limits);
        if (!small) return;
        accepted += 1;
        const general = await boundText(
          r.content.map((b) => b.text),
          { maxBytes: limits.maxBytes, maxLines: limits.maxLines, spill, nameHint: "t" },
        );
        expect(general.spill).toBeUndefined();
        expect(small.texts).toEqual(general.texts);
        if (small.detailsFit) expect(jsonSizeWithin(r, limits.detailsMaxBytes)).toBeDefined();
      }),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(50);
  });
});
