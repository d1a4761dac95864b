/**
 * MCP Apps in real Pi without a viewer (`MCP_UI_VIEWER=none`, as on a
 * headless machine): a tool with a `ui://` resource still runs and the model
 * gets its inline result, app-only tools stay out of search, and
 * `mcp({ action: "ui-messages" })` answers (nothing queued: no window opened).
 */
import { appFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("a UI tool returns its inline result with MCP_UI_VIEWER=none", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: { mcpServers: { board: { command: process.execPath, args: [appFixtureServerPath] } } },
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "board_show_board", args: { title: "Groceries" } } } },
        { toolCall: { name: "mcp", arguments: { search: "board item" } } },
        { toolCall: { name: "mcp", arguments: { action: "ui-messages" } } },
        { text: "The board holds a pear." },
      ],
    });
    const run = await project.run("Show me the board.", { env: { MCP_UI_VIEWER: "none" } });
    expect(run.code, run.stderr).toBe(0);
    const { requests } = project.model;
    expect(requests).toHaveLength(4);
    expect(toolResultTexts(requests[1]!).at(-1)).toBe("Groceries: pear");
    const search = toolResultTexts(requests[2]!).at(-1) ?? "";
    expect(search).toContain("board_show_board");
    expect(search).not.toContain("add_item");
    expect(toolResultTexts(requests[3]!).at(-1)).toBe("No UI messages.");
  });
});
