import type { RemoteTool } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { buildToolMetadata } from "../src/build-tool-metadata.js";

const tool = (name: string): RemoteTool => ({ name, inputSchema: { type: "object" } });
const tools = [tool("files/read.text"), tool("files/write"), tool("Delete_All"), tool("search")];
const kept = (filter: { includeTools?: string[]; excludeTools?: string[] }) =>
  buildToolMetadata("docs", tools, filter).map((t) => t.name);

describe("includeTools / excludeTools use core's tool-glob meaning", () => {
  it("lets * run across / and . in tool names", () => {
    expect(kept({ includeTools: ["files*"] })).toEqual(["files/read.text", "files/write"]);
    expect(kept({ includeTools: ["files/*.text"] })).toEqual(["files/read.text"]);
  });

  it("ignores case, on the original and on the prefixed name", () => {
    expect(kept({ excludeTools: ["delete_*"] })).toEqual(["files/read.text", "files/write", "search"]);
    expect(kept({ includeTools: ["DOCS_SEARCH"] })).toEqual(["search"]);
  });

  it("accepts picomatch alternatives and keeps exclude winning over include", () => {
    expect(kept({ includeTools: ["{search,delete_all}"], excludeTools: ["search"] })).toEqual(["Delete_All"]);
  });
});
