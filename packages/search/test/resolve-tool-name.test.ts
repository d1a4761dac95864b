import { describe, expect, it } from "vitest";
import { resolveToolName } from "../src/index.js";
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
