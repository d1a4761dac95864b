/**
 * The check of a `tools/call` answer (SDK v1's `CallToolResultSchema`) with
 * its fast path: plain text answers come back as sent; everything else is
 * exactly what the SDK's schema makes of it, errors included.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { checkedCallToolResult } from "../../src/protocol/call-tool-result.js";

describe("checkedCallToolResult", () => {
  it("returns a plain text answer as sent, equal to what the SDK's schema makes of it", () => {
    const answers = [
      { content: [{ type: "text", text: "hello" }] },
      {
        content: [
          { text: "a", type: "text" },
          { type: "text", text: "" },
        ],
        isError: true,
      },
      { content: [], structuredContent: { n: 1 }, extra: "kept" },
      { content: [{ type: "text", text: "x", _meta: { k: 1 } }], isError: false },
    ];
    for (const answer of answers) {
      expect(checkedCallToolResult(answer)).toBe(answer);
      expect(checkedCallToolResult(answer)).toEqual(CallToolResultSchema.parse(answer));
    }
  });

  it("anything else is what the SDK's schema returns: defaults filled, unknown block keys dropped", () => {
    const answers = [
      {},
      { content: [{ type: "text", text: "x", stray: 1 }] },
      { content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] },
      { content: [{ type: "text", text: "x", annotations: { priority: 0.5 } }] },
      { content: [{ type: "text", text: "x" }], _meta: { progressToken: 1 } },
    ];
    for (const answer of answers) {
      expect(checkedCallToolResult(answer)).toEqual(CallToolResultSchema.parse(answer));
    }
    expect(checkedCallToolResult({})).toEqual({ content: [] });
  });

  it("rejects what the SDK's schema rejects, with its error", () => {
    const bad = [
      { content: [{ type: "text", text: 42 }] },
      { content: "hello" },
      { content: [], isError: "yes" },
      { content: [], structuredContent: [1, 2] },
      null,
    ];
    for (const answer of bad) {
      expect(() => CallToolResultSchema.parse(answer)).toThrow();
      expect(() => checkedCallToolResult(answer)).toThrow();
    }
  });
});
