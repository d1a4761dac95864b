import { describe, expect, it } from "vitest";
import { describeError, McpAdapterError } from "../src/index.js";
import { ServerDefinitionSchema, ToolMetadataSchema } from "../src/schemas.js";

describe("ServerDefinitionSchema", () => {
  it("fills lifecycle and protocol defaults", () => {
    const parsed = ServerDefinitionSchema.parse({
      name: "docs",
      transport: "http",
      url: "https://example.com/mcp",
      source: { file: "/p/.mcp.json", key: "mcpServers.docs" },
    });
    expect(parsed.lifecycle).toBe("lazy");
    expect(parsed.protocol).toBe("legacy");
  });

  it("rejects an unknown transport and names the field", () => {
    const result = ServerDefinitionSchema.safeParse({
      name: "x",
      transport: "carrier-pigeon",
      source: { file: "f", key: "k" },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["transport"]);
  });
});

describe("ToolMetadataSchema", () => {
  it("keeps unknown annotation hints", () => {
    const parsed = ToolMetadataSchema.parse({
      server: "s",
      name: "t",
      prefixedName: "s_t",
      description: "",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true, vendorHint: 1 },
      kind: "tool",
    });
    expect(parsed.annotations).toEqual({ readOnlyHint: true, vendorHint: 1 });
  });
});

describe("errors", () => {
  it("carry a code and their cause", () => {
    const cause = new Error("root");
    const error = new McpAdapterError("bad_thing", "it broke", { cause });
    expect(error.code).toBe("bad_thing");
    expect(error.cause).toBe(cause);
    expect(describeError(error)).toBe("it broke");
    expect(describeError({ a: 1 })).toBe('{"a":1}');
  });
});
