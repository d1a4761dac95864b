import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import {
  createTempDir,
  recordedPids,
  serverEverythingPath,
  stdioFixtureServerPath,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli as run, runCliWith as runWith } from "./run-cli.js";

// The CLI is tested as users run it: the built bin under plain Node.

describe("pi-mcp-adapter CLI", () => {
  it("lists, searches, describes and calls tools of a stdio server, leaving no process behind", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: {
          fixture: {
            command: process.execPath,
            args: [stdioFixtureServerPath],
            env: { FIXTURE_PID_DIR: dir.path },
          },
        },
      }),
    );
    expect(run(dir.path, "status").stdout).toContain("- fixture: not-connected");
    expect(run(dir.path, "search", "add", "numbers").stdout).toContain("- fixture_add: Add two numbers");
    expect(run(dir.path, "describe", "fixture_add").stdout).toContain("- a (number, required)");
    const call = run(dir.path, "call", "fixture_add", '{"a":2,"b":40}');
    expect(call.stdout.trim()).toBe("42");
    expect(call.status).toBe(0);
    // search lists the server and caches its tools; describe answers from the cache without a spawn.
    expect(existsSync(dir.join("agent", "mcp-cache.json"))).toBe(true);
    // Status tells what the server costs in every request (its roster entry, no direct tools)
    // and what it would with all its tools direct, from the cache: no server started for it.
    const status = JSON.parse(run(dir.path, "status", "--json").stdout) as {
      servers: { name: string; tokens: Record<string, number> }[];
    };
    const tokens = status.servers[0]!.tokens;
    expect(tokens).toMatchObject({ roster: tokens.perRequest, directTools: 0, direct: 0 });
    expect(tokens.perRequest).toBeGreaterThan(0);
    expect(tokens.allDirect).toBeGreaterThan(tokens.perRequest! * 10);
    expect(run(dir.path, "status").stdout).toContain(
      `Tokens in every request: ~${tokens.perRequest}: fixture ~${tokens.perRequest} (all direct ~${tokens.allDirect})`,
    );
    const pids = await recordedPids(dir.path);
    expect(pids).toHaveLength(2);
    expect(await waitForExit(pids)).toEqual([]);
    // Five CLI processes and their servers: give a loaded machine room.
  }, 30_000);

  it("prints a cut result with the path of its spill file, which outlives the CLI process", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
      }),
    );
    const long = "a line of a long echo\n".repeat(4000);
    // The spill directory goes under the test's temp dir (TMPDIR), removed with it.
    const call = runWith(
      { TMPDIR: dir.path },
      dir.path,
      "call",
      "fixture_echo",
      JSON.stringify({ text: long }),
    );
    expect(call.status, call.stderr).toBe(0);
    const file = /Full text saved to (\S+) — /.exec(call.stdout)?.[1];
    expect(file, call.stdout.slice(-300)).toBeDefined();
    expect(file!.startsWith(dir.path)).toBe(true);
    expect(readFileSync(file!, "utf8")).toBe(long);
  }, 30_000);

  it("explains bad config and bad usage", async () => {
    await using dir = await createTempDir();
    await writeFile(dir.join(".mcp.json"), '{\n  "mcpServers": {\n    "x": { "command": 1 }\n  }\n}\n');
    const status = run(dir.path, "status");
    expect(status.stdout).toContain(`error: ${dir.join(".mcp.json")}: mcpServers.x.command:`);
    await writeFile(dir.join(".mcp.json"), '{ "mcpServers": { ');
    expect(run(dir.path, "status").stdout).toMatch(/invalid JSON at line 1 column \d+/);
    const unknown = run(dir.path, "frobnicate");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    const missingTool = run(dir.path, "call", "nope");
    expect(missingTool.status).toBe(1);
    expect(missingTool.stderr).toContain('No MCP tool named "nope"');
  });

  it("lists prompts and prints one prompt's message, checking required arguments", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      }),
    );
    const list = run(dir.path, "prompts");
    expect(list.stdout).toContain(
      "- /mcp__everything__args-prompt <city> [state] — A prompt with two arguments",
    );
    expect(list.stdout).toContain("    city (required): Name of the city");
    const prompt = run(dir.path, "prompt", "args-prompt", "New York", "state=NY");
    expect(prompt.stdout.trim()).toBe("What's weather in New York, NY?");
    expect(prompt.status).toBe(0);
    const byCommand = run(dir.path, "prompt", "mcp__everything__args-prompt", "city=Paris");
    expect(byCommand.stdout.trim()).toBe("What's weather in Paris?");
    const missing = run(dir.path, "prompt", "args-prompt", "state=NY");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(
      "Prompt args-prompt needs argument city. Usage: /mcp__everything__args-prompt <city> [state]",
    );
  }, 30_000);

  it("prints a long call's progress on stderr, the result alone on stdout", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      }),
    );
    const call = run(
      dir.path,
      "call",
      "everything_trigger-long-running-operation",
      '{"duration":0.4,"steps":2}',
    );
    expect(call.status).toBe(0);
    expect(call.stdout.trim()).toBe("Long running operation completed. Duration: 0.4 seconds, Steps: 2.");
    expect(call.stderr).toContain("progress: everything/trigger-long-running-operation 1/2\n");
  }, 30_000);

  it("stats --json reads the stats file the calls of earlier runs kept", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        settings: { captureStats: { file: ".pi/mcp-stats.json" } },
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
      }),
    );
    expect(run(dir.path, "call", "fixture_add", '{"a":1,"b":2}').stdout.trim()).toBe("3");
    expect(run(dir.path, "call", "fixture_add", '{"a":3,"b":4}').stdout.trim()).toBe("7");
    const json = run(dir.path, "stats", "--json");
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { file: string; tools: Record<string, unknown>[] };
    expect(parsed.file).toBe(dir.join(".pi", "mcp-stats.json"));
    expect(parsed.tools).toEqual([
      expect.objectContaining({
        server: "fixture",
        tool: "add",
        calls: 2,
        errors: 0,
        p50Ms: expect.any(Number),
      }),
    ]);
    expect(run(dir.path, "stats").stdout).toMatch(/fixture\/add\s+2\s+0\s+0\s+[\d.]+ ms/);
    // `captureStats: true` keeps them in the default file; off, the CLI says how to turn them on.
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({ settings: { captureStats: true }, mcpServers: {} }),
    );
    expect(run(dir.path, "stats").stdout).toContain(
      `MCP call stats (${dir.join(".pi", "mcp-tool-stats.json")})\nNo MCP calls yet.`,
    );
    await writeFile(dir.join(".mcp.json"), JSON.stringify({ mcpServers: {} }));
    expect(run(dir.path, "stats").stdout).toContain('Call stats are off: set "captureStats"');
    expect(JSON.parse(run(dir.path, "stats", "--json").stdout)).toEqual({ file: null, tools: [] });
  }, 30_000);

  it("call runs a tool that requires an MCP task, its progress on stderr and its result on stdout", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      }),
    );
    const call = run(dir.path, "call", "everything_simulate-research-query", '{"topic":"tides"}');
    expect(call.status, call.stderr).toBe(0);
    expect(call.stdout).toContain("# Research Report: tides");
    expect(call.stderr).toContain("MCP task everything · simulate-research-query: Gathering sources...\n");
    expect(call.stderr).toContain("MCP task everything · simulate-research-query: Generating report...\n");
  }, 30_000);
});
