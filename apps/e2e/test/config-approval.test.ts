/**
 * Project-server approval through a real UI dialog: Pi in RPC mode forwards
 * the adapter's confirm dialog to us. An approved definition is remembered in
 * the agent dir; an edited definition is asked about again.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  createTempDir,
  recordedPids,
  startScriptedModel,
  stdioFixtureServerPath,
  toolResultTexts,
  waitForExit,
  writePiAgentDir,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { allowHeadlessProjectServers } from "../src/fixtures.js";
import { type PiHost, piHosts, spawnPiRpc } from "../src/pi-hosts.js";

interface RpcRun {
  dialogs: { title: string; message: string }[];
  notices: string[];
  toolResults: string[];
}

const WHOAMI = [
  { toolCall: { name: "mcp", arguments: { tool: "whoami", server: "fixture" } } },
  { text: "done" },
];

/** One prompt in RPC mode, answering every confirm dialog with `answer`. */
async function runRpc(
  host: PiHost,
  dirs: { project: string; agentDir: string; home: string },
  answer: boolean,
  prompt: { message: string; script: Parameters<typeof startScriptedModel>[0] } = {
    message: "who serves fixture?",
    script: WHOAMI,
  },
): Promise<RpcRun> {
  await using model = await startScriptedModel(prompt.script);
  await writePiAgentDir(dirs.agentDir, model.baseUrl);
  const child = spawnPiRpc({ host, cwd: dirs.project, agentDir: dirs.agentDir, home: dirs.home });
  const dialogs: RpcRun["dialogs"] = [];
  const notices: string[] = [];
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const timer = setTimeout(() => child.kill(), 60_000);
  try {
    send({ id: "p1", type: "prompt", message: prompt.message });
    for await (const line of createInterface({ input: child.stdout })) {
      const message = JSON.parse(line) as {
        type?: string;
        id?: string;
        method?: string;
        title?: string;
        message?: string;
      };
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
        if (prompt.message.startsWith("/")) break;
      } else if (message.type === "agent_end") break;
    }
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  const toolRequest = model.requests[1];
  return { dialogs, notices, toolResults: toolRequest ? toolResultTexts(toolRequest) : [] };
}

describe.each(piHosts())("$label", (host) => {
  it("asks before starting a project server, remembers the approval, and asks again after an edit", async () => {
    await using dir = await createTempDir();
    const dirs = { project: dir.join("project"), agentDir: dir.join("agent"), home: dir.join("home") };
    const pids = dir.join("pids");
    await Promise.all([dirs.project, pids, dirs.home].map((d) => mkdir(d, { recursive: true })));
    const definition = (args: string[]) => ({
      mcpServers: {
        fixture: {
          command: process.execPath,
          args: [stdioFixtureServerPath, ...args],
          env: { FIXTURE_PID_DIR: pids },
        },
      },
    });
    await writeFile(path.join(dirs.project, ".mcp.json"), JSON.stringify(definition([])));

    const first = await runRpc(host, dirs, true);
    expect(first.dialogs).toHaveLength(1);
    expect(first.dialogs[0]!.title).toBe("Allow project MCP server?");
    expect(first.dialogs[0]!.message).toContain('"fixture"');
    expect(first.dialogs[0]!.message).toContain(stdioFixtureServerPath);
    const started = await recordedPids(pids);
    expect(first.toolResults.join("\n")).toContain(`pid ${started[0]}`);
    const approvals = JSON.parse(
      await readFile(path.join(dirs.agentDir, "mcp-adapter-approvals.json"), "utf8"),
    );
    expect(approvals.approvals).toEqual([
      expect.objectContaining({ project: dirs.project, server: "fixture" }),
    ]);

    const second = await runRpc(host, dirs, false);
    expect(second.dialogs).toEqual([]);
    expect(second.toolResults.join("\n")).toMatch(/^pid \d+$/m);

    await writeFile(path.join(dirs.project, ".mcp.json"), JSON.stringify(definition(["--edited"])));
    const third = await runRpc(host, dirs, false);
    expect(third.dialogs).toHaveLength(1);
    expect(third.toolResults.join("\n")).toMatch(/Unknown MCP server "fixture"|No MCP tool/);
    const all = await recordedPids(pids);
    expect(all).toHaveLength(2);
    expect(await waitForExit(all, 5000)).toEqual([]);
  }, 180_000);

  it("/mcp-adapter disable and enable write only the disabled field to .pi/mcp-adapter.json", async () => {
    await using dir = await createTempDir();
    const dirs = { project: dir.join("project"), agentDir: dir.join("agent"), home: dir.join("home") };
    await Promise.all([dirs.project, dirs.home].map((d) => mkdir(d, { recursive: true })));
    const shared = JSON.stringify({
      mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
    });
    await writeFile(path.join(dirs.project, ".mcp.json"), shared);
    await mkdir(dirs.agentDir, { recursive: true });
    await allowHeadlessProjectServers(dirs.agentDir);
    const override = path.join(dirs.project, ".pi", "mcp-adapter.json");

    const disabled = await runRpc(host, dirs, false, { message: "/mcp-adapter disable fixture", script: [] });
    expect(disabled.notices).toContainEqual(expect.stringContaining('MCP server "fixture" disabled in'));
    expect(JSON.parse(await readFile(override, "utf8"))).toEqual({
      mcpServers: { fixture: { disabled: true } },
    });
    expect(await readFile(path.join(dirs.project, ".mcp.json"), "utf8")).toBe(shared);

    const status = await runRpc(host, dirs, false, {
      message: "status",
      script: [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }],
    });
    expect(status.toolResults.join("\n")).toContain("fixture: disabled");

    await runRpc(host, dirs, false, { message: "/mcp-adapter enable fixture", script: [] });
    expect(JSON.parse(await readFile(override, "utf8"))).toEqual({
      mcpServers: { fixture: { disabled: false } },
    });
  }, 180_000);
});
