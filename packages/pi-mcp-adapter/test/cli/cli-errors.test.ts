/**
 * How the CLI fails, as scripts see it (the built bin): missing words are
 * usage errors (exit 2), and with `--json` every failure prints
 * `{ error, code }` on stdout, the code being the one the error carries.
 */
import { writeFile } from "node:fs/promises";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.js";

function jsonError(stdout: string): unknown {
  return JSON.parse(stdout);
}

describe("pi-mcp-adapter CLI failures", () => {
  it("exits 2 for a missing argument, naming what is missing", async () => {
    await using dir = await createTempDir();
    const prompt = run(dir.path, "prompt");
    expect(prompt.status, prompt.stderr).toBe(2);
    expect(prompt.stderr).toContain("error: prompt needs a prompt name (see: pi-mcp-adapter prompts)");
    for (const command of ["call", "describe"]) {
      const missing = run(dir.path, command);
      expect(missing.status, missing.stderr).toBe(2);
      expect(missing.stderr).toContain(`error: ${command} needs a tool name`);
    }
    const search = run(dir.path, "search");
    expect(search.status, search.stderr).toBe(2);
    expect(search.stderr).toContain("error: search needs words to look for");
  });

  it("prints { error, code } on stdout with --json, for usage errors and failures alike", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
      }),
    );
    const cases: { args: string[]; status: number; code: string; error: string }[] = [
      { args: ["prompt"], status: 2, code: "cli_usage", error: "prompt needs a prompt name" },
      { args: ["frobnicate"], status: 2, code: "cli_usage", error: 'Unknown command "frobnicate"' },
      { args: ["get", "--yes"], status: 2, code: "cli_usage", error: '"get" does not take --yes' },
      { args: ["--frob"], status: 2, code: "cli_usage", error: "--frob" },
      { args: ["token", "set"], status: 2, code: "cli_usage", error: "usage: pi-mcp-adapter token" },
      {
        args: ["token", "set", "nope"],
        status: 1,
        code: "unknown_server",
        error: 'No MCP server named "nope"',
      },
      {
        args: ["call", "fixture_nope"],
        status: 1,
        code: "unknown_tool",
        error: 'No MCP tool named "fixture_nope"',
      },
      { args: ["prompt", "nope"], status: 1, code: "unknown_prompt", error: 'No MCP prompt named "nope"' },
      { args: ["get", "nope"], status: 1, code: "server_not_found", error: 'No server named "nope"' },
      {
        args: ["list", "nope"],
        status: 1,
        code: "unknown_server",
        error: 'No enabled MCP server named "nope"',
      },
    ];
    for (const { args, status, code, error } of cases) {
      const result = run(dir.path, ...args, "--json");
      expect(result.status, `${args.join(" ")}: ${result.stderr}`).toBe(status);
      expect(jsonError(result.stdout), args.join(" ")).toMatchObject({
        code,
        error: expect.stringContaining(error),
      });
    }
  }, 60_000);
});
