/**
 * A Pi start-up with an unchanged config loads no zod (issue 43). The built
 * extension entry is imported in a fresh Node process, as Pi imports it, and
 * driven as Pi drives it: its factory, `session_start`, `before_agent_start`.
 * A module hook records every module the process loads; zod's module body
 * also leaves `globalThis.__zod_globalRegistry` behind, whichever loader ran
 * it. The config names test-kit's stdio fixture server (a real MCP server)
 * and carries a token in an env and a header.
 *
 * First start: the config is validated with zod (it never was), the fixture
 * server is listed by a search, and the metadata cache and the identity of
 * the validated file are written — the identity file user-only and holding no
 * value of the config. Second start, nothing changed: no zod. Then the file
 * changes: the third start validates it again (zod loads) before anything runs.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionDir } from "../../src/pi-hosts.js";

const run = promisify(execFile);
const ENV_TOKEN = "env-token-5f3a9c1e7b";
const HEADER_TOKEN = "header-token-8d2e6b4a0c";

// Runs in the child's module-hook thread: every module loaded, one URL a line.
const HOOK = `
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + "\\n");
  return next(url, context);
}
`;

// A stand-in for Pi as thin as the extension allows (the bench's startup-phases.ts has the same).
const CHILD = `
import { register } from "node:module";
import { appendFileSync } from "node:fs";
register(process.argv[2]);
const handlers = new Map();
const tools = [];
const pi = {
  registerTool(t) { tools.push(t); }, registerCommand() {}, registerFlag() {}, getFlag() {},
  getAllTools() { return tools; }, on(e, h) { handlers.set(e, [...(handlers.get(e) ?? []), h]); },
  events: { on() { return () => {}; }, emit() {} },
};
const fire = async (e, ctx) => { for (const h of handlers.get(e) ?? []) await h({ type: e }, ctx); };
const ctx = { cwd: process.cwd(), hasUI: false, ui: { notify() {}, setStatus() {} } };
const { default: factory } = await import(process.argv[1]);
await factory(pi);
await fire("session_start", ctx);
await fire("before_agent_start", ctx);
const zodRan = globalThis.__zod_globalRegistry !== undefined;
appendFileSync(process.env.LOADED_LOG, "--\\n");
const proxy = tools.find((t) => t.name === "mcp");
let found = "";
if (process.argv[3] === "search") {
  const result = await proxy.execute("x", { search: "echo" }, undefined, undefined, ctx);
  found = result.content.map((c) => c.text ?? "").join("\\n");
}
await fire("session_shutdown", ctx);
process.stdout.write(JSON.stringify({ zodRan, found, description: proxy.description }));
process.exit(0);
`;

interface Start {
  /** Modules loaded from the import until `before_agent_start` was done. */
  loaded: string[];
  zodRan: boolean;
  /** The search's text (first start only). */
  found: string;
  /** The proxy tool's description as registered before the first request (its server roster). */
  description: string;
}

let dir: TempDir;
let agentDir: string;
let configFile: string;

const config = (toolPrefix: string) => ({
  mcpServers: {
    fixture: { command: process.execPath, args: [stdioFixtureServerPath], env: { FIXTURE_TOKEN: ENV_TOKEN } },
    remote: {
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: `Bearer ${HEADER_TOKEN}` },
      disabled: true,
    },
  },
  settings: { toolPrefix },
});

async function start(search = false): Promise<Start> {
  const log = dir.join(`loaded-${Date.now()}-${Math.random()}.log`);
  await writeFile(log, "");
  const entry = pathToFileURL(path.join(extensionDir, "dist", "pi", "extension.js")).href;
  const hook = `data:text/javascript,${encodeURIComponent(HOOK)}`;
  const { stdout } = await run(
    process.execPath,
    ["--input-type=module", "-e", CHILD, entry, hook, ...(search ? ["search"] : [])],
    {
      cwd: dir.join("project"),
      env: {
        PATH: process.env.PATH,
        HOME: dir.join("home"),
        PI_CODING_AGENT_DIR: agentDir,
        LOADED_LOG: log,
      },
      timeout: 60_000,
    },
  );
  const lines = (await readFile(log, "utf8")).split("\n");
  const result = JSON.parse(stdout) as Omit<Start, "loaded">;
  return { loaded: lines.slice(0, lines.indexOf("--")).filter(Boolean), ...result };
}

/** Modules of zod: its package, core's bundled copy (`./zod`, `./schemas`) and any file holding zod's code. */
async function zodModules(loaded: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const url of loaded) {
    if (!url.startsWith("file:")) continue;
    if (/[\\/]node_modules[\\/]zod[\\/]|[\\/]core[\\/]dist[\\/](zod|schemas)\.js$/.test(url)) found.push(url);
    else if ((await readFile(new URL(url), "utf8")).includes("__zod_globalRegistry")) found.push(url);
  }
  return found;
}

beforeEach(async () => {
  dir = await createTempDir();
  agentDir = dir.join("agent");
  configFile = path.join(agentDir, "mcp-adapter.json");
  for (const sub of ["agent", "home", "project"]) await mkdir(dir.join(sub));
  await writeFile(configFile, `${JSON.stringify(config("short"), null, 2)}\n`);
});

afterEach(async () => {
  await dir.remove();
});

describe("a Pi start-up with an unchanged config", () => {
  it("loads no zod; the first start validated the file and kept only its identity, user-only", async () => {
    const first = await start(true);
    expect(first.found).toContain("echo");
    expect(first.zodRan).toBe(true);

    const second = await start();
    expect(await zodModules(second.loaded)).toEqual([]);
    expect(second.zodRan).toBe(false);
    // It read the config and the cached listing all the same: the roster names the server in its own words.
    expect(second.description).toContain('Servers: fixture ("A small fixture server');

    const identityFile = path.join(agentDir, "mcp-config-validated.json");
    expect((await stat(identityFile)).mode & 0o777).toBe(0o600);
    const identity = await readFile(identityFile, "utf8");
    expect(identity).toContain(configFile);
    for (const secret of [ENV_TOKEN, HEADER_TOKEN, "fixture", "127.0.0.1"])
      expect(identity).not.toContain(secret);
    await stat(path.join(agentDir, "mcp-cache.json"));
  });

  it("validates a config file again once it changed, before anything runs", async () => {
    await start();
    await writeFile(configFile, `${JSON.stringify(config("server"), null, 2)}\n`);
    const changed = await start();
    expect(changed.zodRan).toBe(true);
    expect(await zodModules(changed.loaded)).not.toEqual([]);
  });
});
