/**
 * A session's first search from a warm cache loads neither zod nor the MCP
 * SDK (issue 43): making the runtime and answering `mcp({ search })` from the
 * cached listings of a lazy server needs no schema, no client and nothing
 * that starts a server's process (`cross-spawn`). The built
 * extension runs in a fresh Node process, driven as Pi drives it
 * (extension-process.ts), and every module it loads until the first search
 * has answered is recorded. The server is test-kit's stdio fixture (a real
 * MCP server).
 *
 * First session: the config is validated, the search lists the server (it
 * connects: zod and the SDK load) and the metadata cache keeps its listing.
 * Second session, nothing changed: its first search finds the same tool with
 * neither loaded.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runExtensionProcess, sdkModules, zodModules } from "../../src/extension-process.js";

let dir: TempDir;
let agentDir: string;

const session = () =>
  runExtensionProcess({
    cwd: dir.join("project"),
    agentDir,
    home: dir.join("home"),
    log: dir.join(`loaded-${Date.now()}-${Math.random()}.log`),
    search: "echo",
  });

beforeEach(async () => {
  dir = await createTempDir();
  agentDir = dir.join("agent");
  for (const sub of ["agent", "home", "project"]) await mkdir(dir.join(sub));
  const config = { mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } } };
  await writeFile(path.join(agentDir, "mcp-adapter.json"), `${JSON.stringify(config, null, 2)}\n`);
});

afterEach(async () => {
  await dir.remove();
});

describe("a session's first search from a warm cache", () => {
  it("makes the runtime and answers without loading zod or the MCP SDK", async () => {
    const first = await session();
    expect(first.found).toContain("fixture_echo");
    expect(await sdkModules(first.searchLoaded)).not.toEqual([]);

    const second = await session();
    expect(second.found).toContain("fixture_echo");
    expect(second.searchLoaded.some((url) => /[\\/]runtime[\\/]dist[\\/]index\.js$/.test(url))).toBe(true);
    expect(await zodModules(second.searchLoaded)).toEqual([]);
    expect(await sdkModules(second.searchLoaded)).toEqual([]);
    expect(second.zodRanBySearch).toBe(false);
    // Nor what starts a stdio server's process.
    expect(second.commonJs.filter((file) => file.includes("cross-spawn"))).toEqual([]);
  });
});
