/**
 * `parseJsoncText`: plain JSON (read by the native parser) and JSONC (comments,
 * trailing commas) give the same value; anything else is an error naming where.
 */
import { describe, expect, it } from "vitest";
import { parseJsoncText } from "../../src/files/read-json-file.js";

const PLAIN = '{"mcpServers": {"docs": {"url": "https://example.com/mcp", "lifecycle": "lazy"}}}';
const JSONC = `{
  // the docs server
  "mcpServers": {
    "docs": { "url": "https://example.com/mcp", "lifecycle": "lazy", }, /* trailing comma */
  },
}`;

describe("parseJsoncText", () => {
  it("reads plain JSON and JSONC of the same config to the same value", () => {
    const plain = parseJsoncText("plain.json", PLAIN);
    expect(plain).toEqual({
      kind: "ok",
      value: { mcpServers: { docs: { url: "https://example.com/mcp", lifecycle: "lazy" } } },
    });
    expect(parseJsoncText("commented.json", JSONC)).toEqual(plain);
  });

  it("names the line and column of a syntax error, and a file of comments only", () => {
    const broken = parseJsoncText("broken.json", '{\n  "mcpServers": {\n    "docs": { "url" "x" }\n  }\n}');
    expect(broken.kind).toBe("error");
    expect(JSON.stringify(broken)).toContain("invalid JSON at line 3 column");
    expect(JSON.stringify(parseJsoncText("empty.json", ""))).toContain("invalid JSON at line 1 column 1");
    const comments = parseJsoncText("notes.json", "// nothing yet\n");
    expect(JSON.stringify(comments)).toContain("invalid JSON at line 2 column 1");
  });
});
