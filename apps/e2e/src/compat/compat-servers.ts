/**
 * The published MCP servers of the compatibility suite (none written by us,
 * each pinned in apps/e2e's devDependencies) and what the suite asks of each:
 * how it starts, a task a user would search for, a tool to describe, a call
 * that works offline and one that needs the internet (which must fail with
 * the server's own words). Adding a server is adding an entry here.
 */

/** Where a run keeps the files servers read and write. */
export interface CompatPaths {
  /** Files the test writes for the servers (`note.txt`, `page.html`); filesystem's only root. */
  data: string;
  /** Scratch space for servers (memory's file, browser output). */
  scratch: string;
  /** Debian's chromium, for the two browser servers. */
  chromium: string;
}

/** A call and what its result text must show (a pattern, or a function of the run's paths). */
export interface CompatCall {
  tool: string;
  args: (paths: CompatPaths) => Record<string, unknown>;
  expect: RegExp | ((paths: CompatPaths) => RegExp);
}

export interface CompatServer {
  /** The server's name in the config (its tools are `<name>_<tool>`). */
  name: string;
  /** The npm package; the suite runs `node <its bin>`. */
  pkg: string;
  /** Which bin of the package, when it has several. */
  bin?: string;
  args?: (paths: CompatPaths) => string[];
  /** Dummy keys where the server wants one at start; calls that need them then fail against the network. */
  env?: (paths: CompatPaths) => Record<string, string>;
  /** A task in a user's words, and the tools (unprefixed) of which one must rank in the top 5. */
  search: { query: string; expect: string[] };
  /** A tool whose `describe` must name these parameters. */
  describe: { tool: string; params: string[] };
  /** Calls that work without the internet, in order (a later one may read what an earlier one stored). */
  offline?: CompatCall[];
  /** A call that needs the internet (or a service that is not there): an error carrying the server's own text. */
  network?: CompatCall;
  /** The server cannot start here: the connect error must name this cause. */
  startFailure?: RegExp;
}

/** The text `note.txt` holds, and the title and heading of `page.html`. */
export const NOTE_TEXT = "Compatibility note: the kettle is blue.";
export const PAGE_TITLE = "Compat Fixture Page";
export const PAGE_HEADING = "Hello from a local file";

const pageUrl = (p: CompatPaths) => `file://${p.data}/page.html`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const browserArgs = (p: CompatPaths) => [
  "--browser=chromium",
  `--executable-path=${p.chromium}`,
  "--headless",
  "--no-sandbox",
  "--isolated",
  `--output-dir=${p.scratch}/playwright`,
  // file:// pages are blocked by default; the suite serves its page from a file.
  "--allow-unrestricted-file-access",
];

export const COMPAT_SERVERS: CompatServer[] = [
  {
    name: "filesystem",
    pkg: "@modelcontextprotocol/server-filesystem",
    args: (p) => [p.data],
    search: { query: "read a text file", expect: ["read_text_file", "read_file"] },
    describe: { tool: "read_text_file", params: ["path", "head", "tail"] },
    offline: [
      {
        tool: "read_text_file",
        args: (p) => ({ path: `${p.data}/note.txt` }),
        expect: new RegExp(`^${NOTE_TEXT}$`, "m"),
      },
    ],
  },
  {
    name: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    env: (p) => ({ MEMORY_FILE_PATH: `${p.scratch}/memory.jsonl` }),
    search: { query: "save a note to memory", expect: ["create_entities", "add_observations"] },
    describe: { tool: "create_entities", params: ["entities"] },
    offline: [
      {
        tool: "create_entities",
        args: () => ({ entities: [{ name: "Ada", entityType: "person", observations: ["likes tea"] }] }),
        expect: /"name": ?"Ada"/,
      },
      { tool: "open_nodes", args: () => ({ names: ["Ada"] }), expect: /likes tea/ },
    ],
  },
  {
    name: "thinking",
    pkg: "@modelcontextprotocol/server-sequential-thinking",
    search: { query: "think through a hard problem step by step", expect: ["sequentialthinking"] },
    describe: { tool: "sequentialthinking", params: ["thought", "nextThoughtNeeded", "thoughtNumber"] },
    offline: [
      {
        tool: "sequentialthinking",
        args: () => ({
          thought: "First, list the facts.",
          thoughtNumber: 1,
          totalThoughts: 2,
          nextThoughtNeeded: true,
        }),
        expect: /"thoughtNumber": ?1[\s\S]*"totalThoughts": ?2/,
      },
    ],
  },
  {
    name: "everything",
    pkg: "@modelcontextprotocol/server-everything",
    args: () => ["stdio"],
    search: { query: "add two numbers", expect: ["get-sum"] },
    describe: { tool: "echo", params: ["message"] },
    offline: [
      { tool: "echo", args: () => ({ message: "compat ping" }), expect: /Echo: compat ping/ },
      { tool: "get-sum", args: () => ({ a: 19, b: 23 }), expect: /\b42\b/ },
      // The marker the cleanup check looks for reaches the server (and so what it starts).
      { tool: "get-env", args: () => ({}), expect: /PI_MCP_COMPAT_SERVER/ },
    ],
  },
  {
    name: "playwright",
    pkg: "@playwright/mcp",
    args: browserArgs,
    search: { query: "navigate the browser to a website", expect: ["browser_navigate"] },
    describe: { tool: "browser_navigate", params: ["url"] },
    offline: [
      {
        tool: "browser_navigate",
        args: (p) => ({ url: pageUrl(p) }),
        // The title as the real browser read it from the page (the snapshot goes to a file).
        expect: new RegExp(`Page Title: ${PAGE_TITLE}`),
      },
    ],
    network: {
      tool: "browser_navigate",
      args: () => ({ url: "https://compat-check.invalid/" }),
      expect: /net::ERR_NAME_NOT_RESOLVED/,
    },
  },
  {
    name: "devtools",
    pkg: "chrome-devtools-mcp",
    bin: "chrome-devtools-mcp",
    args: (p) => [
      `--executablePath=${p.chromium}`,
      "--headless",
      "--isolated",
      "--chromeArg=--no-sandbox",
      "--no-usage-statistics",
    ],
    search: { query: "take a screenshot of the page", expect: ["take_screenshot"] },
    describe: { tool: "new_page", params: ["url"] },
    offline: [
      {
        tool: "new_page",
        args: (p) => ({ url: pageUrl(p) }),
        // The page list names the page by the title the browser read from it.
        expect: (p) => new RegExp(`${PAGE_TITLE} \\(${escapeRegExp(pageUrl(p))}\\) \\[selected\\]`),
      },
    ],
    network: {
      tool: "new_page",
      args: () => ({ url: "https://compat-check.invalid/" }),
      expect: /ERR_NAME_NOT_RESOLVED/,
    },
  },
  {
    name: "context7",
    pkg: "@upstash/context7-mcp",
    env: () => ({ CONTEXT7_API_KEY: "ctx7sk-compat-dummy" }),
    search: { query: "look up the documentation of a library", expect: ["query-docs", "resolve-library-id"] },
    describe: { tool: "resolve-library-id", params: ["libraryName"] },
    network: {
      tool: "resolve-library-id",
      args: () => ({ libraryName: "react", query: "hooks" }),
      // context7 answers this as a plain result (no isError): the text is all there is.
      expect: /Error searching libraries: TypeError: fetch failed/,
    },
  },
  {
    name: "mongodb",
    pkg: "mongodb-mcp-server",
    env: () => ({ MDB_MCP_TELEMETRY: "disabled" }),
    search: { query: "find documents in a database collection", expect: ["find"] },
    describe: { tool: "find", params: ["database", "collection", "filter"] },
    network: {
      tool: "connect",
      args: () => ({ connectionString: "mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=3000" }),
      // It needs a database first: the server says so in its own words.
      expect: /You need to connect to a MongoDB instance before you can access its data/,
    },
  },
  {
    name: "notion",
    pkg: "@notionhq/notion-mcp-server",
    env: () => ({ NOTION_TOKEN: "ntn_compat_dummy" }),
    search: { query: "search my Notion pages", expect: ["API-post-search"] },
    describe: { tool: "API-post-search", params: ["query"] },
    network: { tool: "API-get-self", args: () => ({}), expect: /Invalid URL/ },
  },
  {
    name: "gitlab",
    pkg: "@zereight/mcp-gitlab",
    env: () => ({
      GITLAB_PERSONAL_ACCESS_TOKEN: "glpat-compat-dummy",
      GITLAB_API_URL: "https://gitlab.com/api/v4",
    }),
    search: { query: "list open merge requests", expect: ["list_merge_requests"] },
    describe: { tool: "list_merge_requests", params: ["project_id"] },
    network: { tool: "list_projects", args: () => ({}), expect: /fetch failed/ },
  },
  {
    name: "circleci",
    pkg: "@circleci/mcp-server-circleci",
    env: () => ({ CIRCLECI_TOKEN: "compat-dummy" }),
    search: { query: "why did my CI build fail", expect: ["get_build_failure_logs"] },
    describe: { tool: "get_build_failure_logs", params: ["params"] },
    network: {
      tool: "get_latest_pipeline_status",
      args: () => ({ params: { projectSlug: "gh/compat/check", branch: "main" } }),
      expect: /fetch failed/,
    },
  },
  {
    name: "firecrawl",
    pkg: "firecrawl-mcp",
    env: () => ({ FIRECRAWL_API_KEY: "fc-compat-dummy" }),
    search: { query: "scrape a web page as markdown", expect: ["firecrawl_scrape"] },
    describe: { tool: "firecrawl_scrape", params: ["url"] },
    network: {
      tool: "firecrawl_scrape",
      args: () => ({ url: "https://example.com" }),
      expect: /getaddrinfo ENOTFOUND api\.firecrawl\.dev/,
    },
  },
  {
    name: "tavily",
    pkg: "tavily-mcp",
    env: () => ({ TAVILY_API_KEY: "tvly-compat-dummy" }),
    search: { query: "search the web for recent news", expect: ["tavily_search"] },
    describe: { tool: "tavily_search", params: ["query"] },
    network: {
      tool: "tavily_search",
      args: () => ({ query: "weather in Lisbon" }),
      expect: /Tavily API error: getaddrinfo ENOTFOUND api\.tavily\.com/,
    },
  },
  {
    name: "sentry",
    pkg: "@sentry/mcp-server",
    args: () => ["--access-token=sntrys_compat_dummy"],
    search: { query: "search error issues in my project", expect: ["search_issues"] },
    describe: { tool: "find_organizations", params: [] },
    network: {
      tool: "find_organizations",
      args: () => ({}),
      expect: /Unable to connect to https:\/\/sentry\.io\/api/,
    },
  },
  {
    name: "nextdevtools",
    pkg: "next-devtools-mcp",
    env: () => ({ NEXT_TELEMETRY_DISABLED: "1" }),
    search: { query: "read the Next.js documentation", expect: ["nextjs_docs"] },
    describe: { tool: "nextjs_docs", params: [] },
    // Without a Next.js project it answers from the disk, before any fetch.
    offline: [
      {
        tool: "nextjs_docs",
        args: () => ({ query: "routing" }),
        expect: /No installed Next\.js was detected/,
      },
    ],
  },
  {
    name: "hello",
    pkg: "mcp-hello-world",
    search: { query: "add two numbers together", expect: ["add"] },
    describe: { tool: "echo", params: ["message"] },
    offline: [{ tool: "echo", args: () => ({ message: "compat" }), expect: /compat/ }],
  },
  {
    name: "azure",
    pkg: "@azure-devops/mcp",
    args: () => ["compat-dummy-org"],
    search: { query: "list work items", expect: [] },
    describe: { tool: "", params: [] },
    startFailure: /Cannot find module[^\n]*keytar/,
  },
];
