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
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runExtensionProcess, zodModules } from "../../src/extension-process.js";

const ENV_TOKEN = "env-token-5f3a9c1e7b";
const HEADER_TOKEN = "header-token-8d2e6b4a0c";

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

/** One session in a fresh process; `loaded` is what it loaded until `before_agent_start` was done. */
async function start(search = false) {
  const run = await runExtensionProcess({
    cwd: dir.join("project"),
    agentDir,
    home: dir.join("home"),
    log: dir.join(`loaded-${Date.now()}-${Math.random()}.log`),
    search: search ? "echo" : undefined,
  });
  return { ...run, loaded: run.startLoaded };
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
