import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { findByPrefixedName } from "../../src/catalog/tool-name-index.js";

const tool = (server: string, name: string, prefixedName: string) =>
  ({ server, name, prefixedName }) as unknown as ToolMetadata;

describe("findByPrefixedName", () => {
  it("finds the first tool with the name, as a scan in order would", () => {
    const first = tool("a", "read_file", "read_file");
    const tools = [tool("a", "list", "a_list"), first, tool("b", "read_file", "read_file")];
    expect(findByPrefixedName(tools, "read_file")).toBe(first);
    expect(findByPrefixedName(tools, "a_list")?.server).toBe("a");
  });

  it("misses names that are not an exact prefixed name", () => {
    const tools = [tool("a", "list", "a_list")];
    expect(findByPrefixedName(tools, "list")).toBeUndefined();
    expect(findByPrefixedName(tools, "A_LIST")).toBeUndefined();
  });

  it("indexes a new array afresh (a changed catalog is a new array)", () => {
    const before = [tool("a", "list", "a_list")];
    expect(findByPrefixedName(before, "b_get")).toBeUndefined();
    const after = [...before, tool("b", "get", "b_get")];
    expect(findByPrefixedName(after, "b_get")?.server).toBe("b");
  });
});
