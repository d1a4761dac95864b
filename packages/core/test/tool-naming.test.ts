import { describe, expect, it } from "vitest";
import { foldName, prefixedToolName, serverPrefix } from "../src/index.js";
import { MAX_TOOL_NAME_LENGTH } from "../src/tool-naming.js";

describe("prefixedToolName", () => {
  it("joins server and tool with _ and folds other characters, as the docs' examples show", () => {
    expect(prefixedToolName("chrome-devtools", "take_screenshot")).toBe("chrome_devtools_take_screenshot");
    expect(prefixedToolName("my.server v2", "get-item")).toBe("my_server_v2_get_item");
  });

  it("supports every prefix mode", () => {
    expect(prefixedToolName("context7-mcp", "resolve-library-id", "short")).toBe(
      "context7_resolve_library_id",
    );
    expect(prefixedToolName("github", "create_issue", "none")).toBe("create_issue");
    expect(prefixedToolName("github", "create_issue", "mcp")).toBe("mcp__github__create_issue");
  });

  it("keeps a server named just 'mcp' whole in short mode", () => {
    expect(serverPrefix("mcp", "short")).toBe("mcp");
    expect(serverPrefix("notion_mcp", "short")).toBe("notion");
  });

  it("caps names at 64 characters and keeps long names distinct", () => {
    const long = "a".repeat(80);
    const one = prefixedToolName("server", `${long}_one`);
    const two = prefixedToolName("server", `${long}_two`);
    expect(one).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(two).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it("folds runs of odd characters to one underscore", () => {
    expect(foldName("a--b..c")).toBe("a_b_c");
  });
});
