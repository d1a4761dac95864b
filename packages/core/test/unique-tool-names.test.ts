import { describe, expect, it } from "vitest";
import { prefixedToolName, uniqueToolNames } from "../src/index.js";
import { MAX_TOOL_NAME_LENGTH } from "../src/tool-naming.js";

describe("uniqueToolNames", () => {
  it("keeps every tool whose names fold alike: the folded-form name wins, the rest get _2, _3 by name", () => {
    expect(uniqueToolNames("math", ["get-sum", "get_sum", "get.sum", "get sum"])).toEqual([
      "math_get_sum_3",
      "math_get_sum",
      "math_get_sum_4",
      "math_get_sum_2",
    ]);
  });

  it("gives each MCP name the same exposed name whatever order the server lists them in", () => {
    const names = ["get-sum", "get_sum", "get.sum", "get sum", "other"];
    const expected = new Map(names.map((n, i) => [n, uniqueToolNames("s", names)[i]]));
    const reversed = [...names].reverse();
    const again = uniqueToolNames("s", reversed);
    expect(again).toEqual(reversed.map((name) => expected.get(name)));
  });

  it("never hands out a suffixed name a real tool already has", () => {
    expect(uniqueToolNames("s", ["a-b", "a_b", "a_b_2"])).toEqual(["s_a_b_3", "s_a_b", "s_a_b_2"]);
  });

  it("keeps equal names apart (the earlier entry wins) and leaves names that do not collide alone", () => {
    expect(uniqueToolNames("s", ["summarize", "list", "summarize"], "none")).toEqual([
      "summarize",
      "list",
      "summarize_2",
    ]);
  });

  it("keeps suffixed names within 64 characters and distinct", () => {
    const long = "x".repeat(70);
    const out = uniqueToolNames("server", [`${long}-a`, `${long}_a`]);
    expect(new Set(out).size).toBe(2);
    for (const name of out) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
  });
});

describe("tool names that already carry the server's name", () => {
  it("are not prefixed twice", () => {
    expect(uniqueToolNames("github", ["github_search", "create_issue"])).toEqual([
      "github_search",
      "github_create_issue",
    ]);
    // Folded first: a tool `github-search` carries the prefix too; in short mode the `-mcp`-less prefix counts.
    expect(uniqueToolNames("github", ["github-search"])).toEqual(["github_search"]);
    expect(uniqueToolNames("github-mcp", ["github_search"], "short")).toEqual(["github_search"]);
    // Only a whole prefix word: `githubsearch` and a bare `github_` are prefixed as usual.
    expect(uniqueToolNames("github", ["githubsearch", "github_"])).toEqual([
      "github_githubsearch",
      "github_github_",
    ]);
    expect(uniqueToolNames("github", ["github_search"], "mcp")).toEqual(["mcp__github__github_search"]);
    expect(uniqueToolNames("github", ["github_search"], "none")).toEqual(["github_search"]);
  });

  it("fall back to the doubled name when the server's own tool holds the short one, in any listing order", () => {
    expect(uniqueToolNames("github", ["github_search", "search"])).toEqual([
      "github_github_search",
      "github_search",
    ]);
    expect(uniqueToolNames("github", ["search", "github_search"])).toEqual([
      "github_search",
      "github_github_search",
    ]);
  });

  it("fall back when another configured server's prefix could make the same name", () => {
    // Server `github_x` would name its tool `y` github_x_y.
    expect(
      uniqueToolNames("github", ["github_x_y", "github_search"], "server", ["github", "github_x"]),
    ).toEqual(["github_github_x_y", "github_search"]);
    // A server `github-mcp` shortens to `github`, the server's own prefix: no conflict from that.
    expect(uniqueToolNames("github", ["github_search"], "server", ["github-mcp"])).toEqual(["github_search"]);
  });

  it("stay put while other tools of the server come and go", () => {
    const before = uniqueToolNames("github", ["github_search", "list_repos"]);
    const after = uniqueToolNames("github", ["github_search", "get_me", "github_list_prs"]);
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe("github_list_prs");
  });
});

describe("a name alone on its server", () => {
  it("is exposed as prefixedToolName names it, in every prefix mode", () => {
    const names = [
      "search",
      "get-sum",
      "get.sum",
      "github_search",
      "github_",
      "Ünïcode name",
      "x".repeat(90),
      "gh_list",
    ];
    for (const server of ["github", "gh-mcp", "my server"])
      for (const mode of ["server", "short", "none", "mcp"] as const)
        for (const name of names)
          expect([server, mode, name, uniqueToolNames(server, [name], mode)[0]]).toEqual([
            server,
            mode,
            name,
            prefixedToolName(server, name, mode),
          ]);
  });
});
