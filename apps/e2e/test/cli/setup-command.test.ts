/**
 * `/mcp-adapter setup` in real Pi: RPC mode forwards the setup menu's
 * select/confirm dialogs to us. Adopting Cursor writes `imports` into the
 * agent dir's `mcp-adapter.json`, and the same session sees Cursor's server
 * at once (status via the model's `mcp` call), without starting it.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { recordedPids, stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

describe.each(piHosts())("$label", (host) => {
  it("/mcp-adapter setup adopts Cursor's servers through dialogs and applies them to the session", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }],
    });
    const cursorFile = path.join(project.home, ".cursor", "mcp.json");
    await mkdir(path.dirname(cursorFile), { recursive: true });
    await writeFile(
      cursorFile,
      JSON.stringify({
        mcpServers: {
          "cursor-tools": {
            command: process.execPath,
            args: [stdioFixtureServerPath],
            env: { FIXTURE_PID_DIR: project.pidDir },
          },
        },
      }),
    );

    const child = project.rpc();
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const menus: string[][] = [];
    const confirms: string[] = [];
    const notices: string[] = [];
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill(), 90_000);
    try {
      send({ id: "setup", type: "prompt", message: "/mcp-adapter setup" });
      for await (const message of rpcMessages(child.stdout)) {
        if (message.type === "agent_end") break;
        if (message.type !== "extension_ui_request") continue;
        if (message.method === "select" && message.title === "MCP setup") {
          const options = message.options ?? [];
          menus.push(options);
          const pick = menus.length === 1 ? options.find((o) => o.startsWith("Adopt cursor")) : "Done";
          send({ type: "extension_ui_response", id: message.id, value: pick });
        } else if (message.method === "confirm") {
          confirms.push(message.title ?? "");
          send({ type: "extension_ui_response", id: message.id, confirmed: true });
        } else if (["select", "input", "editor"].includes(message.method ?? "")) {
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        } else if (message.method === "notify") {
          notices.push(message.message ?? "");
          // The menu is done once it reported the adoption and was closed; then ask the model for status.
          if (message.message?.startsWith("Imported cursor")) {
            send({ id: "status", type: "prompt", message: "status" });
          }
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }

    expect(menus[0], stderr).toContain(`Adopt cursor: cursor-tools (${cursorFile})`);
    expect(menus[0]).toContain("Add a known server (DeepWiki, Context7, Notion, GitHub, Chrome DevTools)");
    expect(confirms).toEqual(["Import cursor servers?"]);
    const adapterFile = path.join(project.agentDir, "mcp-adapter.json");
    expect(notices).toContain(`Imported cursor: wrote imports in ${adapterFile}. Applied to this session.`);
    expect(JSON.parse(await readFile(adapterFile, "utf8"))).toEqual({ imports: ["cursor"] });
    // Cursor's file is untouched, its server is configured in this session, and it was not started.
    expect(JSON.parse(await readFile(cursorFile, "utf8")).mcpServers["cursor-tools"].args).toEqual([
      stdioFixtureServerPath,
    ]);
    const statusRequest = project.model.requests.at(-1);
    expect(statusRequest && toolResultTexts(statusRequest).join("\n")).toContain(
      "cursor-tools: not-connected",
    );
    expect(await recordedPids(project.pidDir)).toEqual([]);
  }, 120_000);
});
