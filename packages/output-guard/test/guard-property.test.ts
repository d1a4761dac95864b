import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createBlobStore, createFileSpillWriter, createOutputGuard } from "../src/index.js";
import { tempRoot } from "./temp.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("createOutputGuard on anything a server might send", () => {
  it("never throws, keeps text within the limits, and leaves no terminal control characters", async () => {
    await using root = await tempRoot();
    const maxBytes = 300;
    const maxLines = 6;
    const guard = createOutputGuard({
      setting: { maxBytes, maxLines, detailsMaxBytes: 200 },
      spill: createFileSpillWriter({ root: root.path }),
      blobs: createBlobStore({ root: root.path, maxFileBytes: 64 }),
    });
    const bytes = fc.uint8Array({ maxLength: 200 });
    const block = fc.oneof(
      fc.record({
        type: fc.constant("text"),
        text: fc.oneof(
          fc.string({ maxLength: 400 }),
          bytes.map((b) => Buffer.from(b).toString("latin1")),
        ),
      }),
      fc.record({ type: fc.constant("image"), data: fc.base64String(), mimeType: fc.string() }),
      fc.record({
        type: fc.constant("audio"),
        data: bytes.map((b) => Buffer.from(b).toString("base64")),
        mimeType: fc.string(),
      }),
      fc.record({
        type: fc.constant("resource"),
        resource: fc.record(
          {
            uri: fc.string(),
            mimeType: fc.string(),
            text: fc.string({ maxLength: 400 }),
            blob: bytes.map((b) => Buffer.from(b).toString("base64")),
          },
          { requiredKeys: ["uri"] },
        ),
      }),
      fc.record({
        type: fc.constant("resource_link"),
        uri: fc.string(),
        name: fc.string(),
        description: fc.string(),
      }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(block, { maxLength: 6 }),
        fc.option(fc.dictionary(fc.string(), fc.anything())),
        fc.boolean(),
        async (content, structuredContent, isError) => {
          const result = { content, isError, ...(structuredContent ? { structuredContent } : {}) } as never;
          const out = await guard.guard(result, { server: "s", tool: "t", details: true });
          expect(out.isError).toBe(isError);
          const texts = out.content.flatMap((c) => (c.type === "text" ? [c.text] : []));
          const shown = (out.spill ? texts.slice(0, -1) : texts).join("\n");
          if (out.spill) {
            expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(maxBytes);
            expect(shown.split("\n").length).toBeLessThanOrEqual(maxLines);
          }
          for (const text of texts) expect(text).not.toMatch(TERMINAL_CONTROL);
          expect(JSON.stringify(out.details ?? null).length).toBeLessThan(2000);
        },
      ),
      { numRuns: 300 },
    );
    await guard.dispose();
  });
});
