import type { RemoteTool } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { buildServerMetadata } from "../src/index.js";

const tool = (name: string): RemoteTool => ({
  name,
  description: `does ${name}`,
  inputSchema: { type: "object" },
});

describe("names that fold alike", () => {
  it("keeps every tool reachable: get_sum keeps its name, the others get stable suffixes", () => {
    const metadata = buildServerMetadata("calc", {
      tools: ["get-sum", "get_sum", "get.sum", "get sum"].map(tool),
    });
    expect(metadata.map((t) => [t.name, t.prefixedName])).toEqual([
      ["get-sum", "calc_get_sum_3"],
      ["get_sum", "calc_get_sum"],
      ["get.sum", "calc_get_sum_4"],
      ["get sum", "calc_get_sum_2"],
    ]);
  });

  it("names a tool carrying its server's name once, unless another configured server's prefix could claim it", () => {
    const names = (serverNames?: string[]) =>
      buildServerMetadata(
        "github",
        { tools: ["github_search", "github_x_y"].map(tool) },
        { serverNames },
      ).map((t) => t.prefixedName);
    expect(names()).toEqual(["github_search", "github_x_y"]);
    expect(names(["github", "github_x"])).toEqual(["github_search", "github_github_x_y"]);
  });

  it("leaves out tools and prompts with an empty or blank name, with a warning naming the server", () => {
    const warnings: string[] = [];
    const metadata = buildServerMetadata(
      "odd",
      { tools: [tool(""), tool("   "), tool("ok")], prompts: [{ name: "" }] },
      { onWarning: (message) => warnings.push(message) },
    );
    expect(metadata.map((t) => t.name)).toEqual(["ok"]);
    expect(warnings).toEqual([
      'MCP server "odd" listed a tool with an empty name; it was left out',
      'MCP server "odd" listed a tool with an empty name; it was left out',
      'MCP server "odd" listed a prompt with an empty name; it was left out',
    ]);
  });

  it("uses the first of two tools listed under one name and says so (a call could not tell them apart)", () => {
    const warnings: string[] = [];
    const metadata = buildServerMetadata(
      "twice",
      { tools: [tool("run"), { ...tool("run"), description: "second" }] },
      { onWarning: (message) => warnings.push(message) },
    );
    expect(metadata.map((t) => `${t.prefixedName}: ${t.description}`)).toEqual(["twice_run: does run"]);
    expect(warnings).toEqual(['MCP server "twice" listed tool "run" twice; only the first is used']);
  });

  it("names resources of one folded name apart too, each keeping its own URI", () => {
    const metadata = buildServerMetadata("docs", {
      tools: [],
      resources: [
        { uri: "file:///a/readme", name: "readme" },
        { uri: "file:///b/readme", name: "README" },
      ],
    });
    expect(metadata.map((t) => [t.prefixedName, t.uri])).toEqual([
      ["docs_resource_readme", "file:///a/readme"],
      ["docs_resource_readme_2", "file:///b/readme"],
    ]);
  });
});
