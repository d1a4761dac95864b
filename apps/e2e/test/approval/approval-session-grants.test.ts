/**
 * "Allow this server for the session" in Pi, with a real session on disk
 * (`--session-dir`): the grant lets the server's other tools run without
 * asking, and it holds when the session is continued in a new Pi process
 * (`--continue`) — stored with the session, restored on start — until the
 * server's definition changes, when the dialog comes back.
 */
import { readFile, writeFile } from "node:fs/promises";
import { type ScriptStep, stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { runRpcPrompt, type UiRequest } from "../../src/rpc-messages.js";

const call = (tool: string, args: Record<string, unknown>): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool, args } },
});

describe.each(piHosts())("$label", (host) => {
  it("--mode rpc: a server grant holds for the session across processes, until the server is edited", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: {
          fixture: { command: process.execPath, args: [stdioFixtureServerPath], approveTools: true },
        },
      },
      steps: [
        call("fixture_echo", { text: "one" }),
        call("fixture_add", { a: 1, b: 2 }),
        { text: "Done." },
        call("fixture_echo", { text: "two" }),
        { text: "Done again." },
        call("fixture_echo", { text: "three" }),
        { text: "Asked." },
      ],
    });
    const sessions = ["--session-dir", project.join("sessions")];
    const selects = async (continued: boolean, answers: string[]) => {
      const child = project.rpc({ sessionArgs: continued ? [...sessions, "--continue"] : sessions });
      const shown = await runRpcPrompt(child, "Use the fixture.", (request) =>
        request.method === "select" ? answers.shift() : undefined,
      );
      return shown.filter((r: UiRequest) => r.method === "select");
    };

    const first = await selects(false, ["Allow this server for the session"]);
    expect(first).toHaveLength(1);
    expect(first[0]!.options).toContain("Allow this server for the session");
    expect(toolResultTexts(project.model.requests.at(-1)!)).toEqual(["one", "3"]);

    // The session continued in a new process: the grant came back with it.
    expect(await selects(true, [])).toEqual([]);
    expect(toolResultTexts(project.model.requests.at(-1)!).at(-1)).toBe("two");

    // The server's definition edited: the grant was for the old one.
    const file = project.join("agent", "mcp-adapter.json");
    const config = JSON.parse(await readFile(file, "utf8"));
    config.mcpServers.fixture.env = { FIXTURE_NAME: "edited" };
    await writeFile(file, JSON.stringify(config));
    const edited = await selects(true, ["Deny"]);
    expect(edited).toHaveLength(1);
    expect(toolResultTexts(project.model.requests.at(-1)!).at(-1)).toContain('"error":"denied"');
  });
});
