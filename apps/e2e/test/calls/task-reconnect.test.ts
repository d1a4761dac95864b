/**
 * A task cut off by a reconnect in the middle of a session reaches the model
 * in that same session, on both Pi lines: a real Pi (`--mode rpc`) calls a
 * task tool on test-kit's Streamable HTTP server whose task store outlives
 * MCP sessions; while the task runs, the user types
 * `/mcp-adapter reconnect remote` (or edits the server in the config file and
 * types `/mcp-adapter reload`); the task then finishes on the server, and
 * the model reads its result as the result of the call that started it —
 * not "connection closed … followed again when the session is resumed".
 */
import { writeFile } from "node:fs/promises";
import { type ScriptStep, serveDurableTaskHttp, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const brew: ScriptStep = {
  toolCall: { name: "mcp", arguments: { tool: "remote_brew", args: { name: "tea" } } },
};

/** Polls `read` until it gives a value (a generous deadline: the machine is shared). */
async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** While the task runs: what the user does to replace the connection, and the notice that says it was done. */
type CutOff = {
  label: string;
  before?: (project: PiProject, url: string) => Promise<void>;
  command: string;
  notice: string;
};

const CUT_OFFS: CutOff[] = [
  {
    label: "/mcp-adapter reconnect",
    command: "/mcp-adapter reconnect remote",
    notice: "remote: reconnected",
  },
  {
    label: "/mcp-adapter reload after the server's entry changed",
    // A changed definition (a header added) makes the reload connect the server afresh.
    before: (project, url) =>
      writeFile(
        project.join("agent", "mcp-adapter.json"),
        JSON.stringify({ mcpServers: { remote: { url, headers: { "X-Reloaded": "1" } } } }),
      ),
    command: "/mcp-adapter reload",
    notice: "changed remote",
  },
];

describe.each(piHosts())("$label", (host) => {
  it.each(CUT_OFFS)(
    "a task cut off by $label reaches the model as its call's result in the same session",
    async (cut) => {
      await using server = await serveDurableTaskHttp();
      await using project = await createPiProject({
        host,
        adapterConfig: { mcpServers: { remote: { url: server.url } } },
        steps: [brew, { text: "The tea is ready." }],
      });
      const pi = project.rpc({ sessionArgs: ["--session-dir", project.join("sessions")] });
      try {
        const send = (command: unknown) => pi.stdin.write(`${JSON.stringify(command)}\n`);
        const notices: string[] = [];
        let ended = false;
        void (async () => {
          for await (const message of rpcMessages(pi.stdout)) {
            if (message.method === "notify") notices.push(String(message.message));
            if (message.type === "agent_end") ended = true;
          }
        })();
        send({ id: "p1", type: "prompt", message: "Brew." });
        const task = await until(async () => (await server.tasks())[0], "the task on the server");
        await cut.before?.(project, server.url);
        send({ id: "r1", type: "prompt", message: cut.command });
        await until(() => notices.find((n) => n.includes(cut.notice)), `the notice of ${cut.command}`);
        await server.finish("tea");
        await until(() => (ended ? true : undefined), "the turn to end");
        expect(project.model.requests).toHaveLength(2);
        const results = toolResultTexts(project.model.requests[1]!);
        expect(results).toHaveLength(1);
        expect(results[0]).toContain("brewed tea");
        expect(results[0]).not.toContain("keeps running on the server");
        // Followed, not cancelled, and only one task: the call was not sent again.
        expect(await server.tasks()).toMatchObject([{ taskId: task.taskId, status: "completed" }]);
      } finally {
        pi.kill();
      }
    },
  );
});
