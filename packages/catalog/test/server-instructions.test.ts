import { describe, expect, it } from "vitest";
import { instructionsHead, instructionsPreview } from "../src/index.js";

const text = `Use this server for issue tracking. Always pass a project key.

Searching: prefer search_issues over list_issues for more than 50 results.
${"Details. ".repeat(300)}`;

describe("server instructions", () => {
  it("gives a one-sentence head for the proxy tool description", () => {
    expect(instructionsHead(text)).toBe("Use this server for issue tracking.");
    expect(instructionsHead("x".repeat(500))).toHaveLength(120);
    expect(instructionsHead(undefined)).toBe("");
  });

  it("gives a bounded preview that ends on a word", () => {
    const preview = instructionsPreview(text, 200);
    expect(preview.length).toBeLessThanOrEqual(200);
    expect(
      preview.startsWith("Use this server for issue tracking. Always pass a project key.\n\nSearching:"),
    ).toBe(true);
    expect(preview.endsWith("…")).toBe(true);
    expect(instructionsPreview("short")).toBe("short");
  });
});
