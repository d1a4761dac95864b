import { describe, expect, it } from "vitest";
import { needsApproval } from "../src/index.js";
import { parseApproveToolsSetting } from "../src/schemas.js";

const tool = (name: string, annotations?: Record<string, boolean>) => ({
  name,
  prefixedName: `github_${name}`,
  ...(annotations ? { annotations } : {}),
});

describe("needsApproval", () => {
  it("asks for nothing without a setting, or with false", () => {
    expect(needsApproval(tool("delete_repo"), {})).toBe(false);
    expect(needsApproval(tool("delete_repo"), { global: false })).toBe(false);
  });

  it("asks for everything with true", () => {
    expect(needsApproval(tool("get_issue", { readOnlyHint: true }), { global: true })).toBe(true);
  });

  it('"destructive" asks unless a tool says it is read-only, and always when it says it is destructive', () => {
    const policy = { global: "destructive" as const };
    expect(needsApproval(tool("get_issue", { readOnlyHint: true }), policy)).toBe(false);
    expect(needsApproval(tool("unknown"), policy)).toBe(true);
    expect(needsApproval(tool("odd", { readOnlyHint: true, destructiveHint: true }), policy)).toBe(true);
  });

  it("matches globs, global or per server, against the original and the prefixed name, ignoring case", () => {
    expect(needsApproval(tool("delete_repo"), { global: ["github_delete_*"] })).toBe(true);
    expect(needsApproval(tool("delete_repo"), { global: ["delete_*"] })).toBe(true);
    expect(needsApproval(tool("delete_repo"), { server: ["delete_*"] })).toBe(true);
    expect(needsApproval(tool("delete_repo"), { server: ["github_delete_*"] })).toBe(true);
    expect(needsApproval(tool("delete_repo"), { server: ["Delete_*"] })).toBe(true);
    expect(needsApproval(tool("get_issue"), { global: ["delete_*"] })).toBe(false);
    expect(needsApproval(tool("repos/delete.all"), { server: ["repos*"] })).toBe(true);
    expect(needsApproval(tool("merge_pull_request"), { server: ["delete_*", "merge_pull_request"] })).toBe(
      true,
    );
    expect(needsApproval(tool("list_{a,b}"), { server: ["list_*"] })).toBe(true);
  });

  it("lets a server's setting win over the global one, also to turn asking off", () => {
    expect(needsApproval(tool("delete_repo"), { global: true, server: false })).toBe(false);
    expect(needsApproval(tool("get_issue"), { global: ["github_delete_*"], server: ["get_*"] })).toBe(true);
  });
});

describe("parseApproveToolsSetting", () => {
  it("accepts the four shapes and names the place of a bad value", () => {
    expect(parseApproveToolsSetting(["a_*"], "x")).toEqual(["a_*"]);
    expect(parseApproveToolsSetting("destructive", "x")).toBe("destructive");
    expect(() => parseApproveToolsSetting("always", "/p/.mcp.json: mcpServers.github.approveTools")).toThrow(
      '/p/.mcp.json: mcpServers.github.approveTools: expected true, false, "destructive", "writes" or a list of tool name globs (got "always")',
    );
  });
});
