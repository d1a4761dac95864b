/**
 * The CLI's help as users see it (the built bin): every usage stands apart
 * from its description by at least two spaces, or the description starts on
 * the next line, and every description of a table starts at one column.
 */
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { CLI_COMMANDS, GLOBAL_FLAGS } from "../../src/cli/commands.js";
import { runCli as run } from "./run-cli.js";

/** Where each row's description starts: same line after two spaces or more, or alone on the next line. */
function descriptionColumns(help: string, rows: readonly (readonly [string, string])[]): number[] {
  const lines = help.split("\n");
  return rows.map(([usage, text]) => {
    const at = lines.findIndex((line) => line.startsWith(`  ${usage} `) || line === `  ${usage}`);
    expect(at, `no row for "${usage}" in:\n${help}`).toBeGreaterThanOrEqual(0);
    const line = lines[at]!;
    const rest = line.slice(2 + usage.length);
    if (rest === "") {
      const next = lines[at + 1] ?? "";
      expect(next.trimStart(), `description of "${usage}"`).toBe(text);
      return next.length - text.length;
    }
    expect(rest, `row "${line}"`).toMatch(/^ {2,}\S/);
    expect(rest.trimStart(), `row "${line}"`).toBe(text);
    return line.length - text.length;
  });
}

const signature = (c: (typeof CLI_COMMANDS)[number]) =>
  `${[c.name, ...(c.aliases ?? [])].join("|")} ${c.args}`.trim();

describe("pi-mcp-adapter --help", () => {
  it("keeps every usage apart from its description, each table in one column", async () => {
    await using dir = await createTempDir();
    const help = run(dir.path, "--help");
    expect(help.status).toBe(0);
    const commands = descriptionColumns(
      help.stdout,
      CLI_COMMANDS.map((c) => [signature(c), c.summary]),
    );
    expect(new Set(commands).size).toBe(1);
    expect(new Set(descriptionColumns(help.stdout, GLOBAL_FLAGS)).size).toBe(1);
  });

  it("does the same for each command's flags and options", async () => {
    await using dir = await createTempDir();
    for (const command of CLI_COMMANDS.filter((c) => c.flags?.length)) {
      const help = run(dir.path, command.name, "--help");
      expect(help.status).toBe(0);
      const flags = (command.flags ?? []).map(([flag, text]) => [`--${flag}`, text] as const);
      expect(new Set(descriptionColumns(help.stdout, flags)).size).toBe(1);
      expect(new Set(descriptionColumns(help.stdout, GLOBAL_FLAGS)).size).toBe(1);
    }
  });
});
