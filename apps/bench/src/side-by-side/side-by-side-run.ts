/**
 * `npm run bench:side-by-side -w apps/bench` (or `npm run bench -w apps/bench
 * -- --side-by-side`): this checkout, the published reference adapter and
 * Pi 1.6's built-in MCP (exposure `codemode` and `deferred`) in the same real
 * Pi 1.6 (Node 22) with the same scripted model, one table. Measures the
 * workspace as built: run `npx turbo run build` first.
 *
 * Flags: `--runs N` start-up runs per column and cache state (default 5),
 * `--pairs N` measured call pairs (default 200), `--only a,b` a subset of
 * startup, tokens, servers, search, fresh, calls, rss, install, shared (its
 * own table: see src/shared/shared-pi-sessions.ts), `--columns
 * a,b` a subset of ours, ref, codemode, deferred (Pi alone always runs).
 * `PI_MCP_BENCH_BEFORE=<another checkout, built>` puts that checkout's
 * adapter in the reference's column: before/after pairs in one run.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import type { PiHost } from "@pi-mcp-adapter/e2e/pi-hosts";
import { loadEvalData } from "../eval-data.js";
import { measureLatency } from "../search/search-latency.js";
import { loadCatalogServers } from "../shell/shell-home.js";
import { measureShared, SERVERS, SESSIONS, SHARED_COLUMNS } from "./shared-pi-sessions.js";
import { formatShared, type SharedResult } from "./shared-table.js";
import { measureCalls } from "./side-by-side-call.js";
import { measureEchoTurns } from "./side-by-side-echo-turn.js";
import { measureFreshSearch } from "./side-by-side-fresh-search.js";
import { measureOurInstall, measureRefInstall } from "./side-by-side-install.js";
import {
  ADAPTERS,
  type BenchProject,
  COLUMNS,
  catalogEntries,
  createBenchProject,
  pi16,
  REF_VERSION,
} from "./side-by-side-project.js";
import { measureRss } from "./side-by-side-rss.js";
import { measureSearch } from "./side-by-side-search.js";
import { measureServers } from "./side-by-side-servers.js";
import { measureStartup } from "./side-by-side-startup.js";
import { formatSideBySide, type SideBySide } from "./side-by-side-table.js";
import { measureTokens } from "./side-by-side-tokens.js";

const SECTIONS = [
  "startup",
  "tokens",
  "servers",
  "search",
  "fresh",
  "calls",
  "rss",
  "install",
  "shared",
] as const;
/** Runs per column of the server-process section, and echo-call sessions per column. */
const SERVER_ROUNDS = 3;
const ECHO_CALLS = 20;
type Section = (typeof SECTIONS)[number];

function parseArgs(argv: string[]) {
  const number = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    if (i < 0) return fallback;
    const value = Number(argv[i + 1]);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${flag} needs a whole number ≥ 1, got ${argv[i + 1]}`);
    return value;
  };
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt < 0 ? [...SECTIONS] : (argv[onlyAt + 1] ?? "").split(",");
  const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length)
    throw new Error(`--only: unknown section ${unknown.join(", ")} (known: ${SECTIONS.join(", ")})`);
  const columnsAt = argv.indexOf("--columns");
  const columns = new Set(columnsAt < 0 ? COLUMNS : (argv[columnsAt + 1] ?? "").split(","));
  return {
    runs: number("--runs", 5),
    pairs: number("--pairs", 200),
    only: new Set(only as Section[]),
    columns,
  };
}

/** The version in the nearest package.json above a file. */
function packageVersion(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  }
  return "unknown";
}

function machine(host: PiHost): string {
  const piNode = execFileSync(host.node, ["--version"], { encoding: "utf8" }).trim();
  return [
    `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}`,
    `${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM`,
    `load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
    `bench on Node ${process.version}, Pi ${packageVersion(host.cli)} on Node ${piNode}`,
  ].join("; ");
}

const { runs, pairs, only, columns } = parseArgs(process.argv.slice(2));
const log = (line: string) => console.error(line);
const host = pi16();
const header = machine(host);
log(header);
const data = loadEvalData();
const servers = loadCatalogServers(data.dir);
const result: SideBySide = { servers: servers.length };
/** The `shared` section: its own columns (sharing on, off, the built-in), so its own table. */
const shared: SharedResult = { columns: {} };
const projects: BenchProject[] = [];
// A section that fails stops the run, but the table still shows what was measured before it.
let failure: unknown;
try {
  const chosen = [ADAPTERS.ours, ADAPTERS.ref, ADAPTERS.codemode, ADAPTERS.deferred].filter((a) =>
    columns.has(a.id),
  );
  for (const adapter of [ADAPTERS.none, ...chosen]) {
    const p = await createBenchProject(adapter, host);
    projects.push(p);
    p.configure(catalogEntries(servers, p.project.pidDir));
  }
  if (only.has("startup")) {
    log(`Start-up, ${servers.length} lazy servers, ${runs} runs each, cold then warm cache…`);
    result.startup = await measureStartup(projects, servers.length, runs, log);
  }
  if (only.has("tokens")) {
    log("Always-on tokens…");
    result.tokens = await measureTokens(projects, servers);
  }
  if (only.has("servers")) {
    log(`Server processes and their memory, ${SERVER_ROUNDS} rounds…`);
    result.serverProcesses = await measureServers(
      projects,
      servers.length,
      SERVER_ROUNDS,
      data.queries[0]!.query,
    );
  }
  if (only.has("search")) {
    log(`Search, ${data.queries.length} queries through Pi…`);
    result.search = await measureSearch(projects, data);
    result.searchInProcessMs = measureLatency(data, { maxScale: data.tools.length })[0]!.medianSearchMs;
  }
  if (only.has("fresh")) {
    log(`Built-in tool_search, a fresh Pi session for each of ${data.queries.length} queries…`);
    const deferred = projects.find((p) => p.adapter.id === "deferred")!;
    result.freshSearch = await measureFreshSearch(deferred, data, log);
  }
  // The adapters' own rows: the built-in has no proxy tool to compare with a bare call, and its RSS row is not asked for.
  const adapters = projects.filter((p) => p.adapter.kind !== "builtin");
  if (only.has("calls")) {
    log(`One echo call as a turn, ${ECHO_CALLS} calls × 3 sessions per column…`);
    result.echoTurnMs = await measureEchoTurns(projects, ECHO_CALLS);
    log(`Proxied vs bare calls, ${pairs} pairs…`);
    result.calls = await measureCalls(adapters, pairs);
    for (const p of projects) p.configure(catalogEntries(servers, p.project.pidDir));
  }
  if (only.has("rss")) {
    log("RSS with 10 eager servers…");
    result.rss = await measureRss(adapters, servers);
  }
  if (only.has("shared")) await measureShared(SHARED_COLUMNS, shared.columns, log);
  if (only.has("install")) {
    log("Production installs (npm pack + npm install; the reference from the registry)…");
    result.install = { ours: measureOurInstall(), ref: measureRefInstall(REF_VERSION) };
  }
} catch (error) {
  failure = error;
} finally {
  for (const p of projects) await p.close();
}

console.log(`Side by side with pi-mcp-adapter@${REF_VERSION} — ${header}`);
console.log(
  `${servers.length} servers / ${data.tools.length} tools (eval catalog), start-up medians of ${runs} runs, ${pairs} call pairs\n`,
);
console.log(formatSideBySide(result));
if (Object.keys(shared.columns).length) {
  console.log(`\nShared servers: ${SESSIONS} Pi sessions × ${SERVERS} stdio servers (server-everything)\n`);
  console.log(formatShared(shared));
}
if (failure) {
  console.error("\nStopped early:", failure);
  process.exitCode = 1;
}
