import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { catalog, tool } from "./catalog-fixture.js";

const top = (query: string, options = {}) =>
  rankTools(query, catalog, options).hits.map((h) => h.tool.prefixedName);

describe("rankTools", () => {
  it("ranks the tool whose name carries the query words first", () => {
    expect(top("screenshot page")[0]).toBe("chrome_devtools_take_screenshot");
    expect(top("git commit")[0]).toBe("git_commit");
  });

  it("splits names on _, -, camelCase and digits so any spelling of a name finds the tool", () => {
    expect(top("take-screenshot")[0]).toBe("chrome_devtools_take_screenshot");
    expect(top("takeScreenshot")[0]).toBe("chrome_devtools_take_screenshot");
    expect(top("mergePullRequest")[0]).toBe("github_merge_pull_request");
    expect(top("CreateMessage twilio")[0]).toBe("twilio_TwilioApiV2010_CreateMessage");
  });

  it("matches word forms through stemming (channels → channel) and prefers the exact form", () => {
    expect(top("slack channels")[0]).toBe("slack_list_channels");
    expect(top("merging pull requests")[0]).toBe("github_merge_pull_request");
  });

  it("tolerates typos and partial words", () => {
    expect(top("screnshot")[0]).toBe("chrome_devtools_take_screenshot");
    expect(top("sequential_thinking")[0]).toBe("sequential_thinking_sequentialthinking");
  });

  it("joins words written apart around a stop word (drop-down → dropdown, log in → login)", () => {
    const tools = [
      tool("browser", "select_option", "Select an option in a dropdown"),
      tool("db", "drop_table", "Drop a table from the database"),
      tool("auth", "login", "Sign the user in"),
      tool("auth", "list_logs", "List log entries"),
    ];
    const first = (query: string) => rankTools(query, tools).hits[0]?.tool.name;
    expect(first("choose from a drop-down menu")).toBe("select_option");
    expect(first("log in")).toBe("login");
  });

  it("reads two words written apart as the synonym-list word they make together (go to → goto ≈ navigate)", () => {
    const tools = [
      tool("browser", "navigate", "Navigate the browser to a page."),
      tool("app", "get_settings", "Read the settings."),
    ];
    expect(rankTools("go to", tools).hits[0]?.tool.name).toBe("navigate");
  });

  it("finds tools through general synonyms and abbreviations", () => {
    expect(top("remove stash")).toContain("git_stash");
    expect(top("merge pr")[0]).toBe("github_merge_pull_request");
    expect(top("send sms").slice(0, 3)).toContain("twilio_TwilioApiV2010_CreateMessage");
  });

  it("uses the product named in the query to pick between servers sharing a tool name", () => {
    expect(top("create a branch in gitlab")[0]).toBe("gitlab_create_branch");
    expect(top("create a branch in github")[0]).toBe("github_create_branch");
  });

  it("returns nothing for words no tool has", () => {
    expect(rankTools("zzqx", catalog).hits).toEqual([]);
    expect(rankTools("", catalog).total).toBe(0);
  });

  it("filters by server", () => {
    const hits = rankTools("create branch", catalog, { server: "gitlab" }).hits;
    expect(hits.map((h) => h.tool.server)).toEqual(["gitlab"]);
  });

  it("paginates with limit, offset and nextOffset", () => {
    const first = rankTools("page", catalog, { limit: 1 });
    expect(first.hits).toHaveLength(1);
    expect(first.total).toBeGreaterThan(1);
    expect(first.nextOffset).toBe(1);
    const rest = rankTools("page", catalog, { limit: 50, offset: first.nextOffset });
    expect(rest.nextOffset).toBeUndefined();
    expect(rest.hits.map((h) => h.tool)).not.toContain(first.hits[0]!.tool);
    expect(first.total).toBe(rest.hits.length + 1);
  });

  it("pages through a large result set in the same order as a full ranking", () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      tool(`s${i % 7}`, `read_${i % 3 ? "thing" : "item"}_${i}`, `Read ${"a thing ".repeat(1 + (i % 5))}`),
    );
    const index = createSearchIndex(many);
    const full = index.score("read thing").hits.map((h) => h.doc);
    expect(full.length).toBe(300);
    const paged: number[] = [];
    for (let offset: number | undefined = 0; offset !== undefined; ) {
      const result = rankTools("read thing", index, { limit: 7, offset });
      expect(result.total).toBe(300);
      paged.push(...result.hits.map((h) => many.indexOf(h.tool)));
      offset = result.nextOffset;
    }
    expect(paged).toEqual(full);
  });

  it("defaults to 12 hits per page", () => {
    const many = Array.from({ length: 30 }, (_, i) => tool("s", `read_thing_${i}`, "Read a thing"));
    const result = rankTools("read", many);
    expect(result.hits).toHaveLength(12);
    expect(result.nextOffset).toBe(12);
  });

  it("adds per-server searchKeywords by exact name, prefixed name, glob and *", () => {
    expect(top("octodex")).toEqual([]);
    const searchKeywords = {
      github: { search_repositories: ["octodex"], "get_*": ["fetch-blob"], "*": ["octocat"] },
      git: { git_commit: ["snapshot-work"] },
    };
    expect(top("octodex", { searchKeywords })).toEqual(["github_search_repositories"]);
    expect(top("fetch-blob", { searchKeywords })[0]).toBe("github_get_file_contents");
    expect(top("octocat", { searchKeywords })).toHaveLength(4);
    expect(top("snapshot-work", { searchKeywords })[0]).toBe("git_commit");
    // Keywords never leak into the metadata itself.
    expect(JSON.stringify(catalog)).not.toContain("octocat");
  });

  it("matches searchKeywords keys with core's tool globs: case-insensitive, across / and ., picomatch alternatives", () => {
    const tools = [tool("docs", "files/read.text", "Read"), tool("docs", "Write_File", "Write")];
    const searchKeywords = { docs: { "FILES*": ["quokka"], "{write,erase}_file": ["wombat"] } };
    expect(rankTools("quokka", tools, { searchKeywords }).hits.map((h) => h.tool.name)).toEqual([
      "files/read.text",
    ]);
    expect(rankTools("wombat", tools, { searchKeywords }).hits.map((h) => h.tool.name)).toEqual([
      "Write_File",
    ]);
  });

  it("regex mode matches names and descriptions in catalog order, paginated, unranked", () => {
    const result = rankTools("^slack_.*(list|post)", catalog, {
      regex: true,
      limit: 1,
      regexBudgetMs: 60_000,
    });
    expect(result.total).toBe(2);
    expect(result.hits[0]!.tool.name).toBe("slack_list_channels");
    expect(result.nextOffset).toBe(1);
    expect(
      rankTools("REPOSITORY$", catalog, { regex: true, regexBudgetMs: 60_000 }).hits.map((h) => h.tool.name),
    ).toEqual(["create_branch", "get_file_contents", "git_commit"]);
  });

  it("explains an invalid regex instead of crashing", () => {
    expect(() => rankTools("(unclosed", catalog, { regex: true })).toThrow(
      /valid regular expression.*\(unclosed/,
    );
  });

  it("accepts a prebuilt index and reuses the cached one for the same array", () => {
    const index = createSearchIndex(catalog);
    expect(rankTools("stash", index).hits[0]!.tool.name).toBe("git_stash");
    expect(rankTools("stash", catalog).hits[0]!.tool.name).toBe("git_stash");
  });
});
