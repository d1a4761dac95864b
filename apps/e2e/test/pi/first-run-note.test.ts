/**
 * The first-run note in real Pi (both lines): a json-mode run says nothing
 * (its output is for scripts and the model) and leaves no marker; the first
 * `--mode rpc` session without servers gets the note once — where config is
 * read from, `/mcp-adapter setup`, `pi-mcp-adapter add` — and the next
 * session does not. A user whose first session already has a server is not
 * told, and is not told later either.
 */
import { access } from "node:fs/promises";
import path from "node:path";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const NOTE = "pi-mcp-adapter: no MCP servers configured yet.";

/** Starts an RPC session, runs `/mcp-adapter status`, and returns every notice up to its answer. */
async function sessionNotices(project: PiProject): Promise<string[]> {
  const child = project.rpc();
  const notices: string[] = [];
  const timer = setTimeout(() => child.kill(), 60_000);
  try {
    child.stdin.write(`${JSON.stringify({ type: "prompt", message: "/mcp-adapter status" })}\n`);
    for await (const message of rpcMessages(child.stdout)) {
      if (message.type !== "extension_ui_request" || message.method !== "notify") continue;
      notices.push(message.message ?? "");
      if (
        /configured|not-connected|No MCP servers/.test(message.message ?? "") &&
        !message.message?.startsWith(NOTE)
      )
        break;
    }
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  return notices;
}

const markerExists = (project: PiProject) =>
  access(path.join(project.agentDir, "mcp-adapter", "first-run")).then(
    () => true,
    () => false,
  );

describe.each(piHosts())("$label", (host) => {
  it("says where config is read from and how to add a server, once, in the first session with a UI", async () => {
    await using project = await createPiProject({ host, firstRun: true, steps: [{ text: "Hello." }] });
    const quiet = await project.run("Hi.");
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).not.toContain(NOTE);
    expect(await markerExists(project)).toBe(false);

    const first = await sessionNotices(project);
    const note = first.find((n) => n.startsWith(NOTE));
    expect(note, first.join("\n---\n")).toBeDefined();
    expect(note).toContain(`${path.join(project.agentDir, "mcp-adapter.json")}`);
    expect(note).toContain("~/.config/mcp/mcp.json");
    expect(note).toContain(".mcp.json");
    expect(note).toContain("/mcp-adapter setup");
    expect(note).toContain("pi-mcp-adapter add <name> -- <command>");
    expect(await markerExists(project)).toBe(true);

    const second = await sessionNotices(project);
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((n) => n.startsWith(NOTE))).toBe(false);
  }, 120_000);

  it("a first session that already has a server gets no note, and sets the marker", async () => {
    await using project = await createPiProject({
      host,
      firstRun: true,
      adapterConfig: {
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
      },
    });
    const notices = await sessionNotices(project);
    expect(notices.some((n) => n.includes("fixture"))).toBe(true);
    expect(notices.some((n) => n.startsWith(NOTE))).toBe(false);
    expect(await markerExists(project)).toBe(true);
  }, 90_000);
});
