import { createRuntime } from "@pi-mcp-adapter/runtime";
import { createTempDir, faultServerPath, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { toolsSubcommand } from "../../src/pi/commands/tools-command.js";
import { panelServers } from "../../src/pi/panel/panel.js";
import { noticeContext } from "../session/notice-context.js";

describe("/mcp-adapter tools [server]", () => {
  it("lists only listed servers without a name, lists a named one (connecting it), marks direct tools", async () => {
    await using dir = await createTempDir();
    const server = { command: process.execPath, args: [stdioFixtureServerPath] };
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          fx: { ...server, directTools: ["echo"] },
          idle: server,
          off: { ...server, disabled: true },
        },
      },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    const { ctx, notes } = noticeContext(dir.path);
    const table = [toolsSubcommand(async () => runtime)];
    try {
      await runAdapterCommand(table, "tools", ctx);
      expect(notes.pop()).toBe(
        [
          "fx (not-connected): not listed yet — /mcp-adapter tools fx lists it",
          "idle (not-connected): not listed yet — /mcp-adapter tools idle lists it",
          "off: disabled",
        ].join("\n"),
      );
      expect(runtime.listings.summaries().every((s) => s.state !== "connected")).toBe(true);

      await runAdapterCommand(table, "tools fx", ctx);
      const listed = notes.pop() ?? "";
      expect(listed.split("\n")[0]).toBe("fx (connected, 4 tools):");
      expect(listed).toContain("  echo — Echo the given text back unchanged. [direct]");
      expect(listed).toContain("  add — Add two numbers and return the sum.");
      expect(listed).not.toContain("sum. [direct]");

      // The panel reads the same facts, never connecting: fx listed, idle not.
      const rows = panelServers(runtime);
      expect(rows.map((r) => [r.name, r.state, r.toolCount, r.directTools, r.disabled])).toEqual([
        ["fx", "connected", 4, ["echo"], false],
        ["idle", "not-connected", 0, false, false],
        ["off", "disabled", 0, false, true],
      ]);

      await runAdapterCommand(table, "tools a b", ctx);
      expect(notes.pop()).toBe("Usage: /mcp-adapter tools [server]");
    } finally {
      await runtime.shutdown();
    }
  });

  it("shows a docstring-style description by its first line that is not blank", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          ci: {
            command: process.execPath,
            args: [faultServerPath],
            env: { FAULT_MODE: "unimplemented-lists" },
          },
        },
      },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    const { ctx, notes } = noticeContext(dir.path);
    try {
      await runAdapterCommand([toolsSubcommand(async () => runtime)], "tools ci", ctx);
      const listed = notes.pop() ?? "";
      expect(listed).toContain("  echo — Echo the given text back.\n");
      expect(listed).toContain("  whoami — The whoami tool.");
    } finally {
      await runtime.shutdown();
    }
  });
});
