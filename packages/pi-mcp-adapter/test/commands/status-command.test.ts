import { createRuntime } from "@pi-mcp-adapter/runtime";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { statusSubcommand } from "../../src/pi/commands/status-command.js";
import { panelSubcommand } from "../../src/pi/panel/panel-command.js";
import { noticeContext } from "../session/notice-context.js";

describe("/mcp-adapter status, and a bare /mcp-adapter where no panel can be drawn", () => {
  it("shows the servers and the direct tools that could not be registered, as text", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          off: { command: "never-run", disabled: true },
          bash: { command: "never-run", disabled: true },
        },
      },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    const { ctx, notes } = noticeContext(dir.path);
    const runtimeFor = async () => runtime;
    let problems = ["read: taken by a Pi tool"];
    const status = statusSubcommand(runtimeFor, () => ({ problems, auto: undefined }));
    const setup = { name: "setup", args: "", summary: "", run: async () => {} };
    const login = async () => {};
    const table = [panelSubcommand({ runtimeFor, login, setup, status }), status];
    try {
      await runAdapterCommand(table, "status", ctx);
      const shown = notes.pop() ?? "";
      expect(shown.split("\n")).toEqual([
        "MCP servers (2):",
        "- off: disabled",
        "  from <inline config>",
        "- bash: disabled",
        "  from <inline config>",
        'Use mcp({search: "words"}) to find tools.',
        "warning: direct tools: read: taken by a Pi tool",
        `hint: MCP server "bash" has the name of Pi's own bash tool; its tools are MCP tools (mcp({server: "bash"}) lists them), not Pi's bash.`,
      ]);

      // Print and json modes have no UI: the panel falls back to the same text.
      await runAdapterCommand(table, "", ctx);
      expect(notes.pop()).toBe(shown);

      // The problems are read when status runs, not when the command was made.
      problems = [];
      await runAdapterCommand(table, "status", ctx);
      expect(notes.pop()).not.toContain("direct tools");
    } finally {
      await runtime.shutdown();
    }
  });

  it("says what each enabled server costs in every request, without starting it", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: { docs: { command: "never-run", description: "Team docs" } } },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    const { ctx, notes } = noticeContext(dir.path);
    const status = statusSubcommand(
      async () => runtime,
      () => ({ problems: [], auto: undefined }),
    );
    try {
      await runAdapterCommand([status], "status", ctx);
      const line = (notes.pop() ?? "").split("\n").find((l) => l.startsWith("Tokens in every request"));
      expect(line).toMatch(/^Tokens in every request: ~\d+: docs ~\d+$/);
      expect(runtime.listings.summaries().find((s) => s.name === "docs")?.state).not.toBe("connected");
    } finally {
      await runtime.shutdown();
    }
  });
});
