import { describe, expect, it } from "vitest";
import { rankTools, SearchError, searchTools } from "../src/index.js";
import { MAX_REGEX_LENGTH, matchToolsByRegex, matchToolsByRegexInSlices } from "../src/regex-guard.js";
import { catalog, tool } from "./catalog-fixture.js";

// A generous budget: these tests check what matches, and must hold on a loaded machine
// (the budget itself is tested below with an injected clock).
const ROOMY = 60_000;
const names = (query: string, tools = catalog) =>
  rankTools(query, tools, { regex: true, limit: 50, regexBudgetMs: ROOMY }).hits.map(
    (h) => h.tool.prefixedName,
  );

function refusal(query: string): SearchError {
  try {
    rankTools(query, catalog, { regex: true, regexBudgetMs: ROOMY });
  } catch (error) {
    expect(error).toBeInstanceOf(SearchError);
    return error as SearchError;
  }
  throw new Error(`"${query}" was not refused`);
}

describe("regex search", () => {
  it("matches case-insensitively over names, descriptions and keywords, as before", () => {
    expect(names("Screenshot")).toEqual(["chrome_devtools_take_screenshot"]);
    expect(names("^git_(stash|commit)$")).toEqual(["git_stash", "git_commit"]);
    expect(names("\\bpull\\s+request\\b")).toEqual(["github_merge_pull_request"]);
    const searchKeywords = { slack: { "*": ["chat-ops"] } };
    expect(rankTools("CHAT-OPS", catalog, { regex: true, searchKeywords, regexBudgetMs: ROOMY }).total).toBe(
      3,
    );
  });

  it("accepts JavaScript spellings RE2 writes differently, and matches any script", () => {
    const tools = [tool("ja", "shot", "スクリーンショットを撮影"), tool("fr", "create", "Créer un fichier")];
    expect(names("\\u30b9\\u30af", tools)).toEqual(["ja_shot"]);
    expect(names("(?<verb>CRÉER)", tools)).toEqual(["fr_create"]);
    expect(names("撮影$", tools)).toEqual(["ja_shot"]);
  });

  it("runs a catastrophic-backtracking pattern over a 10 KB description in linear time", () => {
    // With JavaScript's RegExp this pattern backtracks exponentially: 26.7 s on 48 characters.
    const long = tool("docs", "long_text", `${"Describe the thing in many words ".repeat(320)}!`);
    expect(long.description.length).toBeGreaterThan(10_000);
    const started = performance.now();
    const result = rankTools("^([A-Za-z]+\\s?)+$", [...catalog, long], {
      regex: true,
      limit: 50,
      regexBudgetMs: ROOMY,
    });
    const elapsed = performance.now() - started;
    // Letters and single spaces alone: a name like sequentialthinking or a description without a full
    // stop; not the long description, which ends in "!".
    const hits = result.hits.map((h) => h.tool.name);
    expect(hits).toContain("sequentialthinking");
    expect(hits).toContain("git_stash");
    expect(hits).not.toContain("take_screenshot");
    expect(hits).not.toContain("long_text");
    // The target is well under 100 ms (measured in apps/bench); this bound only rules out backtracking.
    expect(elapsed).toBeLessThan(2_000);
  });

  it("refuses backreferences and lookaround, naming them and suggesting plain words", () => {
    const backreference = refusal("(get)_\\1");
    expect(backreference.code).toBe("unsupported_regex");
    expect(backreference.message).toMatch(
      /RE2 .*no backreferences .*"\(get\)_\\\\1" uses it.*plain words \(regex: false\)/,
    );
    expect(refusal("(?<v>get)\\k<v>").code).toBe("unsupported_regex");
    for (const lookaround of ["create(?=_branch)", "create(?!_branch)", "(?<=git_)commit", "(?<!x)y"]) {
      const error = refusal(lookaround);
      expect(error.code).toBe("unsupported_regex");
      expect(error.message).toContain("no lookahead or lookbehind");
    }
    // Inside a character class or escaped, the same characters are ordinary.
    expect(names("[(?=]|\\(\\?=")).toEqual([]);
  });

  it("refuses a pattern over the length cap or one that counted repetition blows up", () => {
    const long = refusal(`(${"a|".repeat(MAX_REGEX_LENGTH / 2)}b)`);
    expect(long.code).toBe("regex_too_large");
    expect(long.message).toMatch(/up to 500 characters; .* has 503\. .*plain words/);
    const expanding = refusal(`(${"abcdefghij".repeat(4)}){100}`);
    expect(expanding.code).toBe("regex_too_large");
    expect(expanding.message).toMatch(/expands to about \d+ steps \(at most 1000\)/);
    expect(names("x{2,1000}")).toEqual([]);
  });

  it("explains an invalid pattern with RE2's reason", () => {
    const error = refusal("(unclosed");
    expect(error.code).toBe("invalid_regex");
    expect(error.message).toBe(
      'search with regex: true needs a valid regular expression; "(unclosed" is not (missing closing ) at `(unclosed`). Fix the pattern, or search with plain words (regex: false).',
    );
  });

  it("stops a scan that runs past its time budget and says how far it got", () => {
    // Each look at the clock (once per 16 tools) advances it by 10 ms.
    let clock = 0;
    const now = () => (clock += 10);
    const many = Array.from({ length: 100 }, (_, i) => tool("s", `read_${i}`, "Read a thing"));
    expect(() => matchToolsByRegex("read", many, { budgetMs: 50, now })).toThrow(
      /regex search for "read" stopped after 50 ms, with 80 of 100 tools searched \(80 matched so far\)\. Narrow it with server, or search with plain words/,
    );
    clock = 0;
    expect(matchToolsByRegex("read_9\\d", many, { budgetMs: 5_000, now })).toHaveLength(10);
  });
});

describe("regex search for a host (searchTools)", () => {
  const many = Array.from({ length: 30_000 }, (_, i) =>
    tool(
      `s${i % 50}`,
      `read_${i}`,
      "Read a thing from somewhere, with a long enough description to take time",
    ),
  );

  it("yields to the event loop between slices, and finds what the synchronous scan finds", async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      const hits = await matchToolsByRegexInSlices("read_1\\d*9$", many, { sliceMs: 1, totalMs: 60_000 });
      expect(turns).toBeGreaterThan(0);
      expect(hits).toEqual(matchToolsByRegex("read_1\\d*9$", many, { budgetMs: 60_000 }));
      expect(hits.length).toBeGreaterThan(100);
    } finally {
      clearInterval(ticking);
    }
  });

  it("pages like rankTools, and ranked search is unchanged", async () => {
    const sync = rankTools("read_2\\d\\d$", many, {
      regex: true,
      limit: 5,
      offset: 10,
      regexBudgetMs: 60_000,
    });
    expect(await searchTools("read_2\\d\\d$", many, { regex: true, limit: 5, offset: 10 })).toEqual(sync);
    expect(await searchTools("read thing", catalog, { limit: 3 })).toEqual(
      rankTools("read thing", catalog, { limit: 3 }),
    );
  });

  it("stops after its total time, saying how far it got", async () => {
    const failure = await matchToolsByRegexInSlices("read", many, { sliceMs: 1, totalMs: 0 }).catch((e) => e);
    expect(failure).toBeInstanceOf(SearchError);
    expect((failure as SearchError).code).toBe("regex_too_slow");
    expect((failure as SearchError).message).toMatch(
      /regex search for "read" stopped after 0 ms, with \d+ of 30000 tools searched \(\d+ matched so far\)\. Narrow it with server/,
    );
  });

  it("refuses a pattern it will not run, as rankTools does", async () => {
    await expect(searchTools("(a)\\1", catalog, { regex: true })).rejects.toMatchObject({
      code: "unsupported_regex",
    });
  });
});
