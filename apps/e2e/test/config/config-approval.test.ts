/**
 * Project-server approval through a real UI dialog: Pi in RPC mode forwards
 * the adapter's confirm dialog to us. An approved definition is remembered in
 * the agent dir; an edited definition is asked about again.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  recordedPids,
  type ScriptStep,
  stdioFixtureServerPath,
  toolResultTexts,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

interface RpcRun {
  dialogs: { title: string; message: string }[];
  notices: string[];
  toolResults: string[];
}

const WHOAMI: ScriptStep[] = [
  { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
  { text: "done" },
];

/**
 * Prompts (slash commands or messages) one after another in one RPC session,
 * answering every confirm dialog with `answer`; the tool results are those of
 * the model request after the first one of the run.
 */
async function runRpc(project: PiProject, answer: boolean, ...prompts: string[]): Promise<RpcRun> {
  const queue = prompts.length ? [...prompts] : ["who serves fixture?"];
  let prompt = queue.shift() as string;
  const from = project.model.requests.length;
  const child = project.rpc();
  const dialogs: RpcRun["dialogs"] = [];
  const notices: string[] = [];
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const timer = setTimeout(() => child.kill(), 60_000);
  try {
    send({ id: "p0", type: "prompt", message: prompt });
    // The next prompt goes out when the current one has answered; the run ends after the last.
    const next = () => {
      const following = queue.shift();
      if (following === undefined) return false;
      prompt = following;
      send({ id: `p${prompts.length - queue.length}`, type: "prompt", message: prompt });
      return true;
    };
    for await (const message of rpcMessages(child.stdout)) {
      if (message.type === "extension_ui_request" && message.method === "confirm") {
        dialogs.push({ title: message.title ?? "", message: message.message ?? "" });
        send({ type: "extension_ui_response", id: message.id, confirmed: answer });
      } else if (
        message.type === "extension_ui_request" &&
        ["select", "input", "editor"].includes(message.method ?? "")
      ) {
        send({ type: "extension_ui_response", id: message.id, cancelled: true });
      } else if (message.type === "extension_ui_request" && message.method === "notify") {
        notices.push(message.message ?? "");
        if (prompt.startsWith("/") && !next()) break;
      } else if (message.type === "agent_end" && !next()) break;
    }
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  const toolRequest = project.model.requests[from + 1];
  return { dialogs, notices, toolResults: toolRequest ? toolResultTexts(toolRequest) : [] };
}

describe.each(piHosts())("$label", (host) => {
  it("asks before starting a project server, remembers the approval, and asks again after an edit", async () => {
    const definition = (pids: string, args: string[]) => ({
      fixture: {
        command: process.execPath,
        args: [stdioFixtureServerPath, ...args],
        env: { FIXTURE_PID_DIR: pids },
      },
    });
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => definition(pidDir, []),
      steps: [...WHOAMI, ...WHOAMI, ...WHOAMI],
    });
    const pids = project.pidDir;

    const first = await runRpc(project, true);
    expect(first.dialogs).toHaveLength(1);
    expect(first.dialogs[0]!.title).toBe("Allow project MCP server?");
    expect(first.dialogs[0]!.message).toContain('"fixture"');
    expect(first.dialogs[0]!.message).toContain(stdioFixtureServerPath);
    const started = await recordedPids(pids);
    expect(first.toolResults.join("\n")).toContain(`pid ${started[0]}`);
    const approvals = JSON.parse(
      await readFile(path.join(project.agentDir, "mcp-adapter-approvals.json"), "utf8"),
    );
    expect(approvals.approvals).toEqual([
      expect.objectContaining({ project: project.dir, server: "fixture" }),
    ]);

    const second = await runRpc(project, false);
    expect(second.dialogs).toEqual([]);
    expect(second.toolResults.join("\n")).toMatch(/^pid \d+$/m);

    await writeFile(
      path.join(project.dir, ".mcp.json"),
      JSON.stringify({ mcpServers: definition(pids, ["--edited"]) }),
    );
    const third = await runRpc(project, false);
    expect(third.dialogs).toHaveLength(1);
    expect(third.toolResults.join("\n")).toMatch(/Unknown MCP server "fixture"|No MCP tool/);
    const all = await recordedPids(pids);
    expect(all).toHaveLength(2);
    expect(await waitForExit(all, 5000)).toEqual([]);
  }, 180_000);

  it("/mcp-adapter disable and enable write only the disabled field to .pi/mcp-adapter.json and apply it at once", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
      allowProjectServers: true,
      // Only the status prompt reaches the model; the slash commands do not.
      steps: [1, 2, 3].flatMap(() => [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }]),
    });
    const shared = await readFile(path.join(project.dir, ".mcp.json"), "utf8");
    const override = path.join(project.dir, ".pi", "mcp-adapter.json");

    // The same session sees the server disabled at once, without /reload.
    const disabled = await runRpc(project, false, "/mcp-adapter disable fixture", "status");
    expect(disabled.notices).toContainEqual(
      expect.stringMatching(/^MCP server "fixture" disabled in .*; applied to this session\.$/),
    );
    expect(disabled.toolResults.join("\n")).toContain("fixture: disabled");
    expect(JSON.parse(await readFile(override, "utf8"))).toEqual({
      mcpServers: { fixture: { disabled: true } },
    });
    expect(await readFile(path.join(project.dir, ".mcp.json"), "utf8")).toBe(shared);

    const status = await runRpc(project, false, "status");
    expect(status.toolResults.join("\n")).toContain("fixture: disabled");

    const enabled = await runRpc(project, false, "/mcp-adapter enable fixture", "status");
    expect(enabled.toolResults.join("\n")).not.toContain("fixture: disabled");
    expect(enabled.toolResults.join("\n")).toContain("fixture");
    expect(JSON.parse(await readFile(override, "utf8"))).toEqual({
      mcpServers: { fixture: { disabled: false } },
    });
  }, 180_000);
});
