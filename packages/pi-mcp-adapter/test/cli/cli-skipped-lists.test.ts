/**
 * Through the built CLI, a server like @circleci/mcp-server-circleci 0.20.0:
 * it declares resources and prompts but answers their lists with -32601,
 * and describes its tools docstring-style. `reconnect` caches its tools,
 * `status` says what was skipped, `list`, `search` and `describe` answer
 * from the cache with no second start, each tool shown by the first line of
 * its description that is not blank. A server whose resources/list fails
 * another way is cached with that failure named.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createTempDir, faultServerPath, recordedPids, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.js";

const server = (mode: string, pidDir: string) => ({
  command: process.execPath,
  args: [faultServerPath],
  env: { FAULT_MODE: mode, FIXTURE_PID_DIR: pidDir },
});

interface StatusJson {
  servers: { name: string; skippedLists: { list: string; reason: string; error: string }[] }[];
}

describe("CLI with servers whose declared lists do not come", () => {
  it("caches the tools, says what was skipped, and searches without starting the server again", async () => {
    await using dir = await createTempDir();
    await using pids = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({ mcpServers: { ci: server("unimplemented-lists", pids.path) } }),
    );
    expect(run(dir.path, "reconnect", "ci").stdout.trim()).toBe("ci: connected, 4 tools");

    const cache = JSON.parse(await readFile(dir.join("agent", "mcp-cache.json"), "utf8"));
    expect(cache.servers.ci.listing.tools).toHaveLength(4);
    expect(cache.servers.ci.listing.skipped.map((s: { list: string }) => s.list)).toEqual([
      "resources/list",
      "resources/templates/list",
      "prompts/list",
    ]);
    const status = run(dir.path, "status").stdout;
    expect(status).toContain(
      '  resources: none (the server declares them but answers resources/list with "method not found")',
    );
    expect(status).toContain(
      '  prompts: none (the server declares them but answers prompts/list with "method not found")',
    );
    const json = JSON.parse(run(dir.path, "status", "--json").stdout) as StatusJson;
    expect(json.servers[0]?.skippedLists.map((s) => s.reason)).toEqual([
      "unsupported",
      "unsupported",
      "unsupported",
    ]);

    const list = run(dir.path, "list", "ci");
    expect(list.stdout).toContain(
      "ci: 4 tools\n- ci_echo: Echo the given text back.\n- ci_crash: The crash tool.",
    );
    expect(JSON.parse(run(dir.path, "list", "ci", "--json").stdout).servers[0].listed).toBe(true);
    expect(run(dir.path, "search", "echo", "text").stdout).toContain("- ci_echo: Echo the given text back.");
    expect(run(dir.path, "describe", "ci_echo").stdout).toContain(
      "Echo the given text back.\n\nParameters:\n  - text: what to send",
    );
    // Only `reconnect` started it.
    const started = await recordedPids(pids.path);
    expect(started).toHaveLength(1);
    expect(await waitForExit(started)).toEqual([]);
  }, 30_000);

  it("caches the tools of a server whose resources/list fails, and names the failure in status", async () => {
    await using dir = await createTempDir();
    await using pids = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({ mcpServers: { idx: server("failing-lists", pids.path) } }),
    );
    expect(run(dir.path, "reconnect", "idx").stdout.trim()).toBe("idx: connected, 4 tools");
    expect(run(dir.path, "status").stdout).toContain(
      "  resources left out: idx: resources/list failed: MCP error -32603: resource index unavailable (listed again after an hour, or on reconnect)",
    );
    expect(run(dir.path, "search", "echo").stdout).toContain("- idx_echo");
    expect(await recordedPids(pids.path)).toHaveLength(1);
  }, 30_000);
});
