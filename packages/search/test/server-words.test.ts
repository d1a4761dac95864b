/**
 * A query word that names a server holds the ranking to that server's tools,
 * however long the rest of the query: "read a file from a github repo" wants
 * GitHub's file tool, not the local filesystem's `read_file`.
 */
import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

const tools = [
  tool("filesystem", "read_file", "Read the complete contents of a file from the file system."),
  tool("filesystem", "read_multiple_files", "Read the contents of several files at once."),
  tool("filesystem", "write_file", "Create or overwrite a file."),
  tool("github", "get_file_contents", "Get the contents of a file or directory from a GitHub repository."),
  ...["create_branch", "list_commits", "create_issue", "merge_pull_request"].map((name) =>
    tool("github", name, `${name.replace(/_/g, " ")} in a GitHub repository.`),
  ),
];

const first = (query: string, weights = {}) =>
  rankTools(query, createSearchIndex(tools, { weights })).hits[0]?.tool.prefixedName;

describe("query words naming a server", () => {
  it("rank the named server's tool first", () => {
    expect(first("read a file from a github repo")).toBe("github_get_file_contents");
    expect(first("read a file")).toBe("filesystem_read_file");
    // Off, the tool matching the query's other words outranks the named server's.
    expect(first("read a file from a github repo", { serverWords: 0 })).toBe("filesystem_read_file");
  });
});
