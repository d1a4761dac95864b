/**
 * The built extension in a fresh Node process, driven as Pi drives it (its
 * factory, `session_start`, `before_agent_start`, optionally a first
 * `mcp({ search })`, `session_shutdown`), with a module hook recording every
 * module the process loads and where each phase ended. Pi itself would load
 * its own modules too; test-kit's `PI_STAND_IN` (the bench's start-up figures
 * use it too) is as thin as the extension allows, so what it records is the extension's.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { PI_STAND_IN } from "@pi-mcp-adapter/test-kit";
import { extensionDir } from "./pi-hosts.js";

const run = promisify(execFile);
const START_DONE = "--start";
const SEARCH_DONE = "--search";

// Runs in the child's module-hook thread: every module loaded, one URL a line.
const HOOK = `
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + "\\n");
  return next(url, context);
}
`;

const CHILD = `
import { createRequire, register } from "node:module";
import { appendFileSync } from "node:fs";
register(process.argv[2]);
${PI_STAND_IN}
const { default: factory } = await import(process.argv[1]);
await factory(pi);
await fire("session_start", ctx);
await fire("before_agent_start", ctx);
const zodRan = globalThis.__zod_globalRegistry !== undefined;
appendFileSync(process.env.LOADED_LOG, "${START_DONE}\\n");
const proxy = tools.find((t) => t.name === "mcp");
let found = "";
let zodRanBySearch = zodRan;
let commonJs = [];
if (process.argv[3]) {
  const result = await proxy.execute("x", { search: process.argv[3] }, undefined, undefined, ctx);
  found = result.content.map((c) => c.text ?? "").join("\\n");
  zodRanBySearch = globalThis.__zod_globalRegistry !== undefined;
  commonJs = Object.keys(createRequire(process.cwd() + "/").cache);
  appendFileSync(process.env.LOADED_LOG, "${SEARCH_DONE}\\n");
}
await fire("session_shutdown", ctx);
process.stdout.write(JSON.stringify({ zodRan, zodRanBySearch, commonJs, found, description: proxy.description }));
process.exit(0);
`;

export interface ExtensionRun {
  /** Modules loaded from the import until `before_agent_start` was done. */
  startLoaded: string[];
  /** Modules loaded from the import until the first search had answered (empty without a search). */
  searchLoaded: string[];
  /** Whether zod's module body had run by the end of `before_agent_start`. */
  zodRan: boolean;
  /** Whether it had run by the time the first search answered (`zodRan` without a search). */
  zodRanBySearch: boolean;
  /** CommonJS modules in `require`'s cache once the first search had answered (the hook sees only their entries). */
  commonJs: string[];
  /** The search's text (empty without a search). */
  found: string;
  /** The proxy tool's description as registered before the first request (its server roster). */
  description: string;
}

export interface ExtensionRunOptions {
  /** The process's working directory (the project). */
  cwd: string;
  /** Pi's agent dir (`PI_CODING_AGENT_DIR`). */
  agentDir: string;
  /** `HOME` for the process. */
  home: string;
  /** Where the list of loaded modules is written. */
  log: string;
  /** A query for a first `mcp({ search })` after `before_agent_start`; none without it. */
  search?: string;
}

/** Runs one session of the built extension in a fresh process (see the module comment). */
export async function runExtensionProcess(options: ExtensionRunOptions): Promise<ExtensionRun> {
  await writeFile(options.log, "");
  const entry = pathToFileURL(path.join(extensionDir, "dist", "pi", "extension.js")).href;
  const hook = `data:text/javascript,${encodeURIComponent(HOOK)}`;
  const { stdout } = await run(
    process.execPath,
    ["--input-type=module", "-e", CHILD, entry, hook, ...(options.search ? [options.search] : [])],
    {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH,
        HOME: options.home,
        PI_CODING_AGENT_DIR: options.agentDir,
        LOADED_LOG: options.log,
      },
      timeout: 60_000,
    },
  );
  const lines = (await readFile(options.log, "utf8")).split("\n");
  const until = (marker: string) => (lines.includes(marker) ? lines.slice(0, lines.indexOf(marker)) : []);
  const modules = (marked: string[]) => marked.filter((l) => l && !l.startsWith("--"));
  const result = JSON.parse(stdout) as Omit<ExtensionRun, "startLoaded" | "searchLoaded">;
  return { startLoaded: modules(until(START_DONE)), searchLoaded: modules(until(SEARCH_DONE)), ...result };
}

/** Modules of zod: its package, core's bundled copy (`./zod`, `./schemas`) and any file holding zod's code. */
export async function zodModules(loaded: string[]): Promise<string[]> {
  return modulesMatching(loaded, /[\\/]node_modules[\\/]zod[\\/]|[\\/]core[\\/]dist[\\/](zod|schemas)\.js$/, [
    "__zod_globalRegistry",
  ]);
}

/** Modules of the MCP SDK: its packages, or any file holding its client code (transport bundles it). */
export async function sdkModules(loaded: string[]): Promise<string[]> {
  return modulesMatching(loaded, /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]/, [
    "LATEST_PROTOCOL_VERSION",
  ]);
}

async function modulesMatching(loaded: string[], byPath: RegExp, byText: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const url of loaded) {
    if (!url.startsWith("file:")) continue;
    if (byPath.test(url)) found.push(url);
    else {
      const text = await readFile(new URL(url), "utf8");
      if (byText.some((t) => text.includes(t))) found.push(url);
    }
  }
  return found;
}
