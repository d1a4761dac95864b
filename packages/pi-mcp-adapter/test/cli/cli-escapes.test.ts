/**
 * A hostile server's escape sequences (retitle, clear screen, bell) in tool
 * names, descriptions, instructions and errors never reach the terminal
 * through the CLI: list, search, describe, status and call print them stripped.
 */
import { writeFile } from "node:fs/promises";
import { createTempDir, escapeServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli as run } from "./run-cli.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("CLI output of a server with escape sequences", () => {
  it("list, search, describe, status and call print its text without them", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: {
          escape: { command: process.execPath, args: [escapeServerPath] },
          broken: { command: process.execPath, args: [escapeServerPath], env: { ESCAPE_FAIL: "1" } },
        },
      }),
    );
    const search = run(dir.path, "search", "paint", "wall");
    expect(search.stdout).toContain("Paint a wall in a colour.");
    expect(search.stdout).toMatch(/server broken unavailable: .*fatal.*boom/);
    const name = /- (escape_\S+):/.exec(search.stdout)?.[1] ?? "";
    expect(name).not.toBe("");
    const outputs = [
      search,
      run(dir.path, "list"),
      run(dir.path, "describe", name),
      run(dir.path, "status"),
      run(dir.path, "call", name, "{}"),
      run(dir.path, "call", "broken_anything", "{}"),
    ];
    expect(outputs[2]?.stdout).toContain("Colour");
    expect(outputs[4]?.stdout).toContain("painted");
    for (const output of outputs) {
      expect(output.stdout).not.toMatch(CONTROL);
      expect(output.stderr).not.toMatch(CONTROL);
    }
  }, 30_000);
});
