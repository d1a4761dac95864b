/**
 * `directTools: "search"` tools the model activated stay activated when the
 * session goes on in a new Pi process (`--continue`), on both Pi lines, with
 * a real session on disk and server-everything on stdio:
 * - activated through our search (`mcp({ search })`): the adapter recorded
 *   the activation in the session, and the first request of the continued
 *   session declares the tool (and not the ones never activated);
 * - on Pi 1.x, loaded by Pi's own `tool_search`: Pi keeps the load in its
 *   transcript, and the adapter leaves it loaded on resume;
 * - a new session (no `--continue`) starts without them;
 * - in one `--mode rpc` session: compaction keeps the tool, and a fork from
 *   the prompt before the activation (a new session file holding only the
 *   path before that prompt) starts without it.
 * `/tree` moves (not an RPC command) are covered against Pi's real
 * SessionManager in packages/pi-mcp-adapter/test/session/activated-tools.test.ts.
 */
import { writeFile } from "node:fs/promises";
import type { ChatRequest, ScriptEntry } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { everythingPidEntry, everythingWrapperScript } from "../../src/fixtures.js";
import { type PiHost, piHosts, toolSearchExtension } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { type RpcMessage, rpcMessages } from "../../src/rpc-messages.js";

/** The MCP tools of server-everything a request declares. */
function everythingTools(request: ChatRequest | undefined): string[] {
  return (request?.tools ?? [])
    .map((t) => t.function.name)
    .filter((n) => n.startsWith("everything_"))
    .sort();
}

async function searchProject(host: PiHost, steps: ScriptEntry[]) {
  const project = await createPiProject({
    host,
    adapterConfig: (paths) => ({
      mcpServers: { everything: everythingPidEntry(paths, { directTools: "search" }) },
    }),
    steps,
  });
  await writeFile(project.join("everything.mjs"), everythingWrapperScript());
  return project;
}

/**
 * One Pi in `--mode rpc`: `send` writes a command and resolves with the first
 * message `done` accepts (a prompt's `agent_end`, a command's response).
 */
function rpcSession(project: PiProject, sessionArgs: string[]) {
  const child = project.rpc({ sessionArgs });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const messages = rpcMessages(child.stdout)[Symbol.asyncIterator]();
  const send = async (command: Record<string, unknown>, done: (m: RpcMessage) => boolean) => {
    child.stdin.write(`${JSON.stringify(command)}\n`);
    for (;;) {
      const next = await messages.next();
      if (next.done) throw new Error(`Pi ended before answering ${JSON.stringify(command)}:\n${stderr}`);
      const message = next.value;
      // Dialogs are not part of these runs: dismiss any.
      if (message.type === "extension_ui_request" && message.id && message.method !== "notify") {
        child.stdin.write(
          `${JSON.stringify({ type: "extension_ui_response", id: message.id, cancelled: true })}\n`,
        );
      }
      if (done(message)) return message;
    }
  };
  return {
    prompt: (text: string) => send({ type: "prompt", message: text }, (m) => m.type === "agent_end"),
    command: (type: string, extra: Record<string, unknown> = {}) =>
      send({ id: type, type, ...extra }, (m) => m.type === "response" && m.command === type),
    [Symbol.dispose]: () => child.kill(),
  };
}

describe.each(piHosts())("$label", (host) => {
  it("a tool our search activated is declared in the first request after --continue; a new session starts without it", async () => {
    await using project = await searchProject(host, [
      { toolCall: { name: "mcp", arguments: { search: "sum two numbers" } } },
      { text: "Found it." },
      { text: "Continued." },
      { text: "New." },
    ]);
    const sessions = ["--session-dir", project.join("sessions")];

    const first = await project.run("Find a sum tool.", { sessionArgs: sessions });
    expect(first.code, first.stderr).toBe(0);
    expect(everythingTools(first.requests[0])).toEqual([]);

    const continued = await project.run("Go on.", { sessionArgs: [...sessions, "--continue"] });
    expect(continued.code, continued.stderr).toBe(0);
    const restored = everythingTools(continued.requests[0]);
    expect(restored).toContain("everything_get_sum");
    expect(restored).not.toContain("everything_echo");
    // Pi 1.x declares an activation within the same prompt; 0.7x from the next prompt on.
    if (host.nativeMcp) expect(everythingTools(first.requests[1])).toEqual(restored);

    const fresh = await project.run("Start over.", { sessionArgs: sessions });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(everythingTools(fresh.requests[0])).toEqual([]);
  }, 180_000);

  it("--mode rpc: compaction keeps an activated tool; a fork from before the activation starts without it", async () => {
    await using project = await searchProject(host, [
      { toolCall: { name: "mcp", arguments: { search: "sum two numbers" } } },
      { text: "Found it." },
      { text: "Summary: the user found a sum tool." },
      { text: "After compaction." },
      { text: "On the fork." },
    ]);
    // Compaction keeps the recent turns; keeping almost none gives a short session something to compact.
    await writeFile(
      project.join("agent", "settings.json"),
      JSON.stringify({ compaction: { keepRecentTokens: 1 } }),
    );
    using pi = rpcSession(project, ["--session-dir", project.join("sessions")]);
    await pi.prompt("Find a sum tool.");
    const compacted = await pi.command("compact");
    expect(compacted.success, JSON.stringify(compacted)).toBe(true);
    const from = project.model.requests.length;
    await pi.prompt("Go on.");
    expect(everythingTools(project.model.requests[from])).toContain("everything_get_sum");

    // Fork at the first prompt: the new session holds what came before it, not the activation.
    const forkable = await pi.command("get_fork_messages");
    const first = (forkable.data as { messages: { entryId: string; text: string }[] }).messages.find(
      (m) => m.text === "Find a sum tool.",
    );
    expect(first, JSON.stringify(forkable.data)).toBeDefined();
    const forked = await pi.command("fork", { entryId: first!.entryId });
    expect(forked.success, JSON.stringify(forked)).toBe(true);
    const onFork = project.model.requests.length;
    await pi.prompt("Something else.");
    expect(everythingTools(project.model.requests[onFork])).toEqual([]);
  }, 180_000);

  // Pi 1.x only: its own `tool_search` (a built-in extension, loaded here next to ours) loads the
  // deferred tool; Pi restores that load from its transcript, and the adapter must not undo it.
  if (host.nativeMcp)
    it("Pi 1.x: a tool Pi's tool_search loaded is still declared after --continue", async () => {
      const toolSearch = toolSearchExtension(host);
      await using project = await searchProject(host, [
        { toolCall: { name: "tool_search", arguments: { query: "sum two numbers" } } },
        { text: "Loaded." },
        { text: "Continued." },
      ]);
      const args = (...more: string[]) => ({
        sessionArgs: ["--session-dir", project.join("sessions"), ...more],
        extraArgs: ["-e", toolSearch],
      });
      const first = await project.run("Load a sum tool.", args());
      expect(first.code, first.stderr).toBe(0);
      expect(everythingTools(first.requests[1])).toContain("everything_get_sum");

      const continued = await project.run("Go on.", args("--continue"));
      expect(continued.code, continued.stderr).toBe(0);
      expect(everythingTools(continued.requests[0])).toEqual(everythingTools(first.requests[1]));
    }, 180_000);
});
