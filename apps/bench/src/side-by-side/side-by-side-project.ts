/**
 * The side-by-side suite's setup: the columns it compares (this checkout,
 * the published 2.36.0, Pi 1.6's built-in MCP with exposure `codemode` and
 * `deferred`, and Pi alone), each in its own isolated Pi 1.6
 * project (apps/e2e's `createPiProject`: scripted model, agent dir, HOME), with
 * helpers to write the adapter's config, clear or inspect its metadata cache,
 * script the model for one run, and time that run to its first model request.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CACHE_FILE_NAME } from "@pi-mcp-adapter/catalog";
import { ensureHostsInstalled, extensionDir, type PiHost, piHosts } from "@pi-mcp-adapter/e2e/pi-hosts";
import { createPiProject, type PiProject, type PiRunExtras } from "@pi-mcp-adapter/e2e/pi-project";
import {
  type ChatRequest,
  recordedPids,
  type ScriptEntry,
  type ScriptStep,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import type { CatalogServer } from "../shell/shell-home.js";
import { commandLineOf } from "./side-by-side-processes.js";

export type AdapterId = "ours" | "ref" | "codemode" | "deferred" | "none";

/** `proxy`: an extension with an `mcp` proxy tool (ours, 2.36); `builtin`: Pi's own MCP; `none`: Pi alone. */
export type AdapterKind = "proxy" | "builtin" | "none";

export interface Adapter {
  id: AdapterId;
  kind: AdapterKind;
  label: string;
  /** What Pi loads with `-e`. */
  extension: string;
  /** More `-e` extensions (the built-in's codemode and tool search). */
  extraArgs?: string[];
  /** Its config file in the agent dir (the `mcpServers` of the user level). */
  configFile?: string;
  /** Its metadata cache file in the agent dir. */
  cacheFile?: string;
  /** Fields added to every server entry (the built-in's `exposure`). */
  entryExtra?: Record<string, unknown>;
}

/** Pi runs with `--no-extensions`, which also drops its built-ins; these load the built-in MCP with its codemode and tool search. */
const BUILTIN_EXTRA_ARGS = ["-e", "builtin:codemode", "-e", "builtin:tool-search"];

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

export const catalogServerPath = fixture("catalog-server.mjs");
export const benchProbeExtension = fixture("bench-probe-extension.mjs");
const spawnLogPreload = pathToFileURL(fixture("spawn-log.mjs")).href;

/** The published reference, installed under the alias `pi-mcp-adapter-ref` (its `.` export is `index.ts`). */
const refDir = dirname(createRequire(import.meta.url).resolve("pi-mcp-adapter-ref"));

export const REF_VERSION = JSON.parse(readFileSync(join(refDir, "package.json"), "utf8")).version as string;

export const ADAPTERS: Record<AdapterId, Adapter> = {
  ours: {
    id: "ours",
    kind: "proxy",
    label: "this checkout",
    extension: extensionDir,
    configFile: "mcp-adapter.json",
    cacheFile: CACHE_FILE_NAME,
  },
  // 2.36 names its cache in metadata-cache.ts (`getAgentPath("mcp-cache.json")`).
  ref: {
    id: "ref",
    kind: "proxy",
    label: `pi-mcp-adapter@${REF_VERSION}`,
    extension: refDir,
    configFile: "mcp.json",
    cacheFile: "mcp-cache.json",
  },
  // Pi 1.6's built-in reads `mcp.json` in the agent dir (`~/.pi/agent/mcp.json`); it has no metadata cache.
  codemode: {
    id: "codemode",
    kind: "builtin",
    label: "built-in codemode",
    extension: "builtin:mcp",
    extraArgs: BUILTIN_EXTRA_ARGS,
    configFile: "mcp.json",
  },
  deferred: {
    id: "deferred",
    kind: "builtin",
    label: "built-in deferred",
    extension: "builtin:mcp",
    extraArgs: BUILTIN_EXTRA_ARGS,
    configFile: "mcp.json",
    entryExtra: { exposure: "deferred" },
  },
  none: { id: "none", kind: "none", label: "Pi alone", extension: fixture("noop-extension.mjs") },
};

// Before/after pairs in one run: the reference's column runs another checkout's build of ours.
const before = process.env.PI_MCP_BENCH_BEFORE;
if (before) {
  const extension = join(before, "packages/pi-mcp-adapter");
  ADAPTERS.ref = { ...ADAPTERS.ours, id: "ref", label: `before (${before})`, extension };
}

/** The columns of the table, in order. */
export const COLUMNS = ["ours", "ref", "codemode", "deferred"] as const satisfies readonly AdapterId[];

/** Pi 1.6 on Node 22 (installed into apps/e2e/hosts from its lockfile when missing). */
export function pi16(): PiHost {
  ensureHostsInstalled();
  const host = piHosts().find((h) => h.nativeMcp);
  if (!host) throw new Error("Pi 1.6 host not found in apps/e2e/hosts");
  return host;
}

export interface TimedRun {
  /** Wall time from starting Pi to its first model request. */
  ms: number;
  /** The first model request, as sent. */
  first: ChatRequest;
  /** Every model request of the run. */
  requests: ChatRequest[];
  /** `performance.now()` when each request of the run arrived. */
  arrivals: number[];
  /** Child processes logged up to the first request (only with `countSpawns`). */
  spawned?: string[];
  stderr: string;
}

export interface BenchProject {
  adapter: Adapter;
  project: PiProject;
  /** Writes the adapter's config with these servers (an empty object for Pi alone does nothing). */
  configure(servers: Record<string, unknown>): void;
  clearCache(): void;
  /** Servers with an entry in the adapter's metadata cache. */
  cachedServers(): number;
  clearPids(): void;
  /** Servers started since the last `clearPids` (pid files of the catalog fixture). */
  startedServers(): number;
  /**
   * One json-mode Pi run whose model requests are answered by `steps` (then
   * "Done."), timed from spawn to the first request.
   */
  run(
    steps: ScriptStep[] | ((request: ChatRequest) => ScriptStep)[],
    options?: RunOptions,
  ): Promise<TimedRun>;
  close(): Promise<void>;
}

export interface RunOptions extends PiRunExtras {
  /** Log the child processes started (by Pi and its descendants) until the first model request. */
  countSpawns?: boolean;
}

export async function createBenchProject(adapter: Adapter, host = pi16()): Promise<BenchProject> {
  // The scripted model answers request n with script[n], counted across runs:
  // each run pads the script to the requests so far and appends its own steps.
  const script: ScriptEntry[] = [];
  const project = await createPiProject({ host, steps: script });
  const cacheFile = adapter.cacheFile ? join(project.agentDir, adapter.cacheFile) : undefined;
  return {
    adapter,
    project,
    configure(servers) {
      if (!adapter.configFile) return;
      const extra = adapter.entryExtra ?? {};
      const entries = Object.fromEntries(
        Object.entries(servers).map(([name, entry]) => [name, { ...(entry as object), ...extra }]),
      );
      writeFileSync(join(project.agentDir, adapter.configFile), JSON.stringify({ mcpServers: entries }));
    },
    clearCache: () => {
      if (cacheFile) rmSync(cacheFile, { force: true });
    },
    cachedServers() {
      if (!cacheFile || !existsSync(cacheFile)) return 0;
      const json = JSON.parse(readFileSync(cacheFile, "utf8")) as { servers?: Record<string, unknown> };
      return Object.keys(json.servers ?? {}).length;
    },
    clearPids() {
      rmSync(project.pidDir, { recursive: true, force: true });
      mkdirSync(project.pidDir, { recursive: true });
    },
    startedServers: () => readdirSync(project.pidDir).length,
    async run(steps, options = {}) {
      const { countSpawns, ...extra } = options;
      const spawnLog = project.join(`spawns-${Date.now()}.log`);
      let spawned: string[] | undefined;
      const arrivals: number[] = [];
      const entries = [...steps, { text: "Done." } as ScriptStep].map((step, i) => (request: ChatRequest) => {
        arrivals.push(performance.now());
        if (i === 0 && countSpawns) spawned = readLines(spawnLog);
        return typeof step === "function" ? step(request) : step;
      });
      script.length = project.model.requests.length;
      script.push(...entries);
      const env = {
        ...extra.env,
        ...(countSpawns ? { NODE_OPTIONS: `--import=${spawnLogPreload}`, BENCH_SPAWN_LOG: spawnLog } : {}),
      };
      const start = performance.now();
      const result = await project.run("Start.", {
        timeoutMs: 300_000,
        ...extra,
        env,
        extension: adapter.extension,
        extraArgs: [...(adapter.extraArgs ?? []), ...(extra.extraArgs ?? [])],
      });
      await settle(project.pidDir, adapter.label);
      const first = result.requests[0];
      if (!first || arrivals.length === 0) {
        throw new Error(
          `${adapter.label}: Pi made no model request (exit ${result.code}):\n${result.stderr.slice(-2000)}`,
        );
      }
      return {
        ms: arrivals[0]! - start,
        first,
        requests: result.requests,
        arrivals,
        spawned,
        stderr: result.stderr,
      };
    },
    close: async () => {
      await project[Symbol.asyncDispose]();
    },
  };
}

/**
 * Waits for every catalog server started so far to be gone, so that the next
 * run (often another column's) does not share the machine with servers still
 * exiting: the built-in leaves 38 behind when Pi exits. Only pids whose
 * command line is the catalog fixture's count (a recorded pid may since have
 * been reused); any still running after 20 s are named on stderr.
 */
async function settle(pidDir: string, label: string): Promise<void> {
  const ours = (pid: number) => commandLineOf(pid)?.includes(catalogServerPath) === true;
  const survivors = await waitForExit((await recordedPids(pidDir)).filter(ours), 20_000);
  if (survivors.length > 0) {
    process.stderr.write(
      `  ${label}: ${survivors.length} catalog server(s) still running 20 s after Pi exited\n`,
    );
  }
}

function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8").split("\n").filter(Boolean);
}

/** Config entries serving each catalog server's real tool list through `fixtures/catalog-server.mjs`. */
export function catalogEntries(
  servers: CatalogServer[],
  pidDir: string,
  extra: (server: CatalogServer) => Record<string, unknown> = () => ({}),
): Record<string, unknown> {
  return Object.fromEntries(
    servers.map((s) => [
      s.name,
      {
        command: process.execPath,
        args: [catalogServerPath, s.file],
        env: { FIXTURE_PID_DIR: pidDir },
        ...extra(s),
      },
    ]),
  );
}

/** The proxy tool call both adapters answer with a ranked search. */
export function searchStep(query: string): ScriptStep {
  return { toolCall: { name: "mcp", arguments: { search: query, limit: 10, includeSchemas: false } } };
}
