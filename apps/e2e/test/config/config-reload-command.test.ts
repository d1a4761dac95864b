/**
 * `/mcp-adapter reload` in real Pi (both lines, `--mode rpc`): the session's
 * runtime is made first (`/mcp-adapter status`), then the user config file
 * changes behind Pi's back — one server removed, one added, one changed.
 * The reload notice names each, and the model's next call reaches the added
 * server in the same session (no `/reload`, no restart).
 */
import { writeFile } from "node:fs/promises";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const server = (label: string) => ({
  command: process.execPath,
  args: [stdioFixtureServerPath],
  env: { LABEL: label },
});

describe.each(piHosts())("$label", (host) => {
  it("/mcp-adapter reload applies added, removed and changed servers live", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ toolCall: { name: "mcp", arguments: { tool: "added_echo", args: { text: "hi" } } } }],
      adapterConfig: { mcpServers: { kept: server("a"), changed: server("a"), gone: server("a") } },
    });
    const configFile = project.join("agent", "mcp-adapter.json");
    const child = project.rpc();
    const send = (message: string) => child.stdin.write(`${JSON.stringify({ type: "prompt", message })}\n`);
    const notices: string[] = [];
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill(), 90_000);
    try {
      send("/mcp-adapter status");
      for await (const message of rpcMessages(child.stdout)) {
        if (message.type === "agent_end") break;
        if (message.type !== "extension_ui_request" || message.method !== "notify") continue;
        const text = message.message ?? "";
        notices.push(text);
        if (text.includes("gone:") && !text.startsWith("Reloaded")) {
          await writeFile(
            configFile,
            JSON.stringify({ mcpServers: { kept: server("a"), changed: server("b"), added: server("a") } }),
          );
          send("/mcp-adapter reload");
        }
        if (text.startsWith("Reloaded MCP config")) send("Echo hi with the added server.");
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }
    expect(
      notices.find((n) => n.startsWith("Reloaded")),
      stderr,
    ).toBe("Reloaded MCP config: added added; removed gone; changed changed (3 servers configured).");
    expect(toolResultTexts(project.model.requests[1]!).at(-1)).toBe("hi");
  }, 120_000);
});
