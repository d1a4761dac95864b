/**
 * Runs the compatibility suite's servers through the real CLI bin in one
 * fresh agent dir: one `reconnect` over every server, then per server (a few
 * at a time) a search, a describe, its offline calls and its network call,
 * each a CLI process of its own; then waits for every process the servers
 * started (found by a marker in their environment) to be gone. Returns what
 * it saw; judging it is compat-checks.ts's job.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TempDir } from "@pi-mcp-adapter/test-kit";
import {
  type CompatPaths,
  type CompatServer,
  NOTE_TEXT,
  PAGE_HEADING,
  PAGE_TITLE,
} from "./compat-servers.js";

const e2eDir = fileURLToPath(new URL("../..", import.meta.url));
const cliPath = path.join(e2eDir, "..", "..", "packages", "pi-mcp-adapter", "dist", "cli", "main.js");
/** The environment variable every server (and so every process it starts) carries: `<run id>:<server>`. */
export const MARKER = "PI_MCP_COMPAT_SERVER";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: the CLI's --json output, read field by field
  json: any;
}

export interface CallSeen {
  tool: string;
  ok: boolean | undefined;
  text: string;
}

export interface ServerSeen {
  name: string;
  connect: { ok: boolean; toolCount: number | null; error: string | null };
  listed: boolean;
  /** Each tool's name as `call` takes it (`list --json`), by the name the server gave it. */
  callNames: Record<string, string>;
  cachedTools: number | null;
  search?: { hits: string[]; text: string };
  describe?: CallSeen;
  offline: CallSeen[];
  network?: CallSeen;
  /** Processes carrying this server's marker once everything was done (command lines). */
  leftovers: string[];
}

export interface CompatRun {
  paths: CompatPaths;
  servers: ServerSeen[];
  /** Wall time of the whole run, in ms. */
  wallMs: number;
  /** `searches` over every server's cached tools: the text the CLI printed, by query. */
  searches: Record<string, string>;
}

/** A package's directory inside this checkout's node_modules. */
export function packageDir(pkg: string): string {
  for (const base of [path.join(e2eDir, "node_modules"), path.join(e2eDir, "..", "..", "node_modules")]) {
    if (existsSync(path.join(base, pkg, "package.json"))) return path.join(base, pkg);
  }
  throw new Error(`${pkg} is not installed: run npm ci at the repository root`);
}

/** A package's manifest: its version and bins. */
export function manifestOf(pkg: string): { version: string; bin: string | Record<string, string> } {
  return JSON.parse(readFileSync(path.join(packageDir(pkg), "package.json"), "utf8"));
}

/** The path of a package's bin inside this checkout's node_modules. */
export function binOf(pkg: string, bin?: string): string {
  const manifest = manifestOf(pkg);
  const entry =
    typeof manifest.bin === "string" ? manifest.bin : manifest.bin[bin ?? Object.keys(manifest.bin)[0]!];
  if (!entry) throw new Error(`${pkg} has no bin ${bin ?? ""}`);
  return path.join(packageDir(pkg), entry);
}

/** An `mcpServers` entry: `node <bin> args…`, with the marker and a private TMPDIR. */
export function serverEntry(server: CompatServer, paths: CompatPaths, runId: string) {
  return {
    command: process.execPath,
    args: [binOf(server.pkg, server.bin), ...(server.args?.(paths) ?? [])],
    env: {
      ...server.env?.(paths),
      [MARKER]: `${runId}:${server.name}`,
      TMPDIR: path.join(paths.scratch, "tmp"),
    },
  };
}

/** Writes the files the servers' calls read: a note and a small HTML page. */
export async function writeCompatFiles(paths: CompatPaths): Promise<void> {
  for (const dir of [paths.data, paths.scratch, path.join(paths.scratch, "tmp")])
    await mkdir(dir, { recursive: true });
  await writeFile(path.join(paths.data, "note.txt"), `${NOTE_TEXT}\n`);
  await writeFile(
    path.join(paths.data, "page.html"),
    `<!doctype html><html><head><title>${PAGE_TITLE}</title></head><body><h1>${PAGE_HEADING}</h1></body></html>`,
  );
}

/** Processes whose environment carries `MARKER=<runId>:…`, by server name. */
export async function markedProcesses(runId: string): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, "utf8");
      const mark = environ.split("\0").find((v) => v.startsWith(`${MARKER}=${runId}:`));
      if (!mark) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue; // a zombie is gone, only unreaped
      const cmd = (await readFile(`/proc/${entry}/cmdline`, "utf8")).replaceAll("\0", " ").trim();
      const server = mark.slice(mark.indexOf(":") + 1);
      found.set(server, [...(found.get(server) ?? []), `${entry} ${cmd}`]);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

export function runCli(agentDir: string, cwd: string, args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, "--json", ...args], {
      cwd,
      env: { ...process.env, PI_CODING_AGENT_DIR: agentDir, HOME: path.join(path.dirname(agentDir), "home") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

async function runLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

const callSeen = (tool: string, run: CliRun): CallSeen => ({
  tool,
  // A thrown error prints `{ error }` (exit 1): not ok either.
  ok: run.json?.ok ?? (run.json?.error === undefined ? undefined : false),
  text: run.json?.text ?? run.json?.error ?? `${run.stdout}${run.stderr}`,
});

/** Search, describe and calls of one server, each through its own CLI process. */
async function exerciseServer(server: CompatServer, seen: ServerSeen, paths: CompatPaths, cli: CliCall) {
  const prefixed = (tool: string) => seen.callNames[tool] ?? `${server.name}_${tool}`;
  const search = await cli(["search", server.search.query]);
  seen.search = { hits: search.json?.details?.hits ?? [], text: search.json?.text ?? search.stderr };
  const describe = await cli(["describe", prefixed(server.describe.tool)]);
  seen.describe = callSeen(server.describe.tool, describe);
  for (const call of server.offline ?? []) {
    seen.offline.push(
      callSeen(call.tool, await cli(["call", prefixed(call.tool), JSON.stringify(call.args(paths))])),
    );
  }
  const network = server.network;
  if (network) {
    seen.network = callSeen(
      network.tool,
      await cli(["call", prefixed(network.tool), JSON.stringify(network.args(paths))]),
    );
  }
}

type CliCall = (args: string[]) => Promise<CliRun>;

export interface CompatRunOptions {
  temp: TempDir;
  servers: CompatServer[];
  chromium: string;
  /** How many servers are exercised at once after the common reconnect. */
  concurrency?: number;
  /** Queries searched over all the servers' tools once each server was exercised. */
  searches?: string[];
}

export async function runCompat(options: CompatRunOptions): Promise<CompatRun> {
  const started = Date.now();
  const { temp, servers } = options;
  const runId = path.basename(temp.path);
  // Inside the project: filesystem swaps its configured directories for the client's roots (the project) once it has them.
  const paths: CompatPaths = {
    data: temp.join("project", "data"),
    scratch: temp.join("scratch"),
    chromium: options.chromium,
  };
  const agentDir = temp.join("agent");
  const project = temp.join("project");
  for (const dir of [agentDir, project, temp.join("home")]) await mkdir(dir, { recursive: true });
  await writeCompatFiles(paths);
  const mcpServers = Object.fromEntries(servers.map((s) => [s.name, serverEntry(s, paths, runId)]));
  await writeFile(path.join(agentDir, "mcp-adapter.json"), JSON.stringify({ mcpServers }, null, 2));
  const cli: CliCall = (args) => runCli(agentDir, project, args);

  const reconnect = await cli(["reconnect"]);
  const connected = new Map<string, CompatRun["servers"][number]["connect"]>(
    (reconnect.json?.servers ?? []).map((s: ServerSeen["connect"] & { name: string }) => [
      s.name,
      { ok: s.ok, toolCount: s.toolCount, error: s.error },
    ]),
  );
  const listing = await cli(["list"]);
  type Listed = { name: string; listed: boolean; tools: { name: string; tool: string }[] };
  const listed = new Map<string, Listed>((listing.json?.servers ?? []).map((s: Listed) => [s.name, s]));
  const cache = JSON.parse(
    await readFile(path.join(agentDir, "mcp-cache.json"), "utf8").catch(() => "{}"),
  ) as {
    servers?: Record<string, { listing?: { tools?: unknown[] } }>;
  };

  const seen: ServerSeen[] = servers.map((s) => ({
    name: s.name,
    connect: connected.get(s.name) ?? {
      ok: false,
      toolCount: null,
      error: `not in reconnect's answer: ${reconnect.stdout}${reconnect.stderr}`,
    },
    listed: listed.get(s.name)?.listed ?? false,
    callNames: Object.fromEntries((listed.get(s.name)?.tools ?? []).map((t) => [t.tool, t.name])),
    cachedTools: cache.servers?.[s.name]?.listing?.tools?.length ?? null,
    offline: [],
    leftovers: [],
  }));
  await runLimited(
    servers.filter((s) => !s.startFailure),
    options.concurrency ?? 3,
    (server) => exerciseServer(server, seen.find((s) => s.name === server.name)!, paths, cli),
  );

  // Every CLI process has exited; what the servers started must go too (chromium takes a moment).
  let left = await markedProcesses(runId);
  for (
    const deadline = Date.now() + 20_000;
    left.size > 0 && Date.now() < deadline;
    left = await markedProcesses(runId)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  for (const s of seen) s.leftovers = left.get(s.name) ?? [];
  for (const lines of left.values()) for (const line of lines) killQuietly(Number(line.split(" ")[0]));
  const searches: Record<string, string> = {};
  for (const query of options.searches ?? []) {
    const found = await cli(["search", query]);
    searches[query] = found.json?.text ?? `${found.stdout}${found.stderr}`;
  }
  return { paths, servers: seen, wallMs: Date.now() - started, searches };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
