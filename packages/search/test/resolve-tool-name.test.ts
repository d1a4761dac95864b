import { describe, expect, it } from "vitest";
import { ambiguityMessage, resolveToolName } from "../src/index.js";
import { catalog } from "./catalog-fixture.js";

const name = (result: ReturnType<typeof resolveToolName>) =>
  "match" in result ? result.match.prefixedName : undefined;

describe("resolveToolName", () => {
  it("resolves the exact prefixed name and a unique original name", () => {
    expect(name(resolveToolName("github_merge_pull_request", catalog))).toBe("github_merge_pull_request");
    expect(name(resolveToolName("merge_pull_request", catalog))).toBe("github_merge_pull_request");
  });

  it("resolves across hyphens, underscores and case", () => {
    expect(name(resolveToolName("chrome-devtools-take-screenshot", catalog))).toBe(
      "chrome_devtools_take_screenshot",
    );
    expect(name(resolveToolName("Take-Screenshot", catalog))).toBe("chrome_devtools_take_screenshot");
  });

  it("asks for the server when an original name exists on several servers", () => {
    const result = resolveToolName("create_branch", catalog);
    expect("ambiguous" in result && result.ambiguous.map((t) => t.server).sort()).toEqual([
      "github",
      "gitlab",
    ]);
    expect(name(resolveToolName("create_branch", catalog, "gitlab"))).toBe("gitlab_create_branch");
  });

  it("suggests the three closest names for a typo", () => {
    const result = resolveToolName("github_merge_pul_request", catalog);
    expect("suggestions" in result).toBe(true);
    if (!("suggestions" in result)) return;
    expect(result.suggestions).toHaveLength(3);
    expect(result.suggestions[0]!.prefixedName).toBe("github_merge_pull_request");
  });

  it("suggests by original name too, and by words in any order", () => {
    const typo = resolveToolName("take_screenshoot", catalog);
    expect("suggestions" in typo && typo.suggestions[0]!.name).toBe("take_screenshot");
    const swapped = resolveToolName("slack_channels_list", catalog);
    expect("suggestions" in swapped && swapped.suggestions[0]!.name).toBe("slack_list_channels");
  });
});

describe("ambiguityMessage", () => {
  const entry = (server: string, name: string, prefixedName: string, kind: "tool" | "prompt" = "tool") => ({
    server,
    name,
    prefixedName,
    description: "",
    inputSchema: { type: "object" },
    kind,
  });

  it("names the servers when the matches are on several, and says to pass server", () => {
    expect(
      ambiguityMessage("create_branch", [
        entry("github", "create_branch", "github_create_branch"),
        entry("gitlab", "create_branch", "gitlab_create_branch"),
      ]),
    ).toBe(
      'Tool "create_branch" exists on several servers: github_create_branch (server github), gitlab_create_branch (server gitlab). Pass server, or use one of these names.',
    );
  });

  it("does not blame several servers when one server has names that differ only in punctuation", () => {
    const tools = [
      entry("calc", "get_sum", "calc_get_sum"),
      entry("calc", "get sum", "calc_get_sum_2"),
      entry("calc", "get-sum", "calc_get_sum_3"),
    ];
    const result = resolveToolName("GETSUM", tools, "calc");
    expect("ambiguous" in result).toBe(true);
    if (!("ambiguous" in result)) return;
    expect(ambiguityMessage("GETSUM", result.ambiguous)).toBe(
      'Tool "GETSUM" matches 3 entries of server calc whose names differ only in case or punctuation (or are a tool and a prompt of one name): calc_get_sum (tool "get_sum"), calc_get_sum_2 (tool "get sum"), calc_get_sum_3 (tool "get-sum"). Use one of these exact names.',
    );
  });
});
