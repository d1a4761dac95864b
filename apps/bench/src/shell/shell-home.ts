/**
 * A throwaway Pi home for the shell benchmarks: `HOME` and
 * `PI_CODING_AGENT_DIR` point into a temp dir whose `mcp-adapter.json`
 * configures every server of the eval catalog (38 servers, 991 tools) and whose
 * `mcp-cache.json` already holds their listings — a warm cache, so listing
 * them needs no connection. Each server is the stdio fixture with
 * `FIXTURE_PID_DIR` set, so a server that starts anyway leaves a pid file.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CACHE_FILE_NAME, MetadataCache } from "@pi-mcp-adapter/catalog";
import { ADMIT_ALL_PROJECT_SERVERS, definitionHash, loadConfig } from "@pi-mcp-adapter/config";
import type { RemoteTool, ServerDefinition } from "@pi-mcp-adapter/core";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { evalDir } from "../eval-data.js";

export interface CatalogServer {
  name: string;
  tools: RemoteTool[];
  /** The catalog file it came from (what `fixtures/catalog-server.mjs` serves). */
  file: string;
}

export interface ShellHome {
  root: string;
  agentDir: string;
  /** The project directory sessions start in (no project config). */
  cwd: string;
  /** Where a server that was started anyway leaves its pid. */
  pidDir: string;
  servers: CatalogServer[];
  /** The servers as the config loader built them (their hashes key the cache). */
  definitions: ServerDefinition[];
  /** The warm metadata cache file. */
  cacheFile: string;
  close(): void;
}

/** The servers of the eval catalog (`<eval>/catalog/*.json`, without `summary.json`). */
export function loadCatalogServers(dir = evalDir()): CatalogServer[] {
  const catalogDir = join(dir, "catalog");
  return readdirSync(catalogDir)
    .filter((file) => file.endsWith(".json") && file !== "summary.json")
    .sort()
    .map((file) => {
      const doc = JSON.parse(readFileSync(join(catalogDir, file), "utf8")) as {
        server: string;
        tools: RemoteTool[];
      };
      return { name: doc.server, tools: doc.tools, file: join(catalogDir, file) };
    });
}

/**
 * Writes config and warm cache for `servers`, and points this process's
 * `HOME` and `PI_CODING_AGENT_DIR` at them (the extension reads both).
 */
export async function createShellHome(
  servers: CatalogServer[],
  /** More keys for a server's config entry (e.g. `directTools`). */
  entryExtra: (server: CatalogServer) => Record<string, unknown> = () => ({}),
): Promise<ShellHome> {
  const root = mkdtempSync(join(tmpdir(), "pi-mcp-bench-shell-"));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(root, "project");
  const pidDir = join(root, "pids");
  for (const dir of [agentDir, cwd, pidDir]) mkdirSync(dir, { recursive: true });
  const mcpServers = Object.fromEntries(
    servers.map((s) => [
      s.name,
      {
        command: process.execPath,
        args: [stdioFixtureServerPath],
        env: { FIXTURE_PID_DIR: pidDir },
        ...entryExtra(s),
      },
    ]),
  );
  writeFileSync(join(agentDir, "mcp-adapter.json"), JSON.stringify({ mcpServers }, null, 2));
  process.env.HOME = home;
  process.env.PI_CODING_AGENT_DIR = agentDir;

  const config = await loadConfig({ cwd, environment: { home, agentDir }, trust: ADMIT_ALL_PROJECT_SERVERS });
  if (config.problems.length > 0) {
    throw new Error(`Bench config has problems: ${config.problems.map((p) => p.message).join("; ")}`);
  }
  const cacheFile = join(agentDir, CACHE_FILE_NAME);
  const cache = new MetadataCache({ file: cacheFile });
  const byName = new Map(servers.map((s) => [s.name, s]));
  for (const server of config.servers) {
    await cache.put(server.name, definitionHash(server), { tools: byName.get(server.name)!.tools });
  }
  return {
    root,
    agentDir,
    cwd,
    pidDir,
    servers,
    definitions: config.servers,
    cacheFile,
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** How many configured servers were started (pid files left by the fixture). */
export function startedServers(home: ShellHome): number {
  return readdirSync(home.pidDir).length;
}
