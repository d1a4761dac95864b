/**
 * "Allow for session" grants kept with Pi's session: stored through Pi's
 * real SessionManager (a session file on disk), read back by a runtime made
 * for the resumed session, and dropped when the server's definition or the
 * tool's fingerprint changed. `pi` here is only `appendEntry` wired to that
 * SessionManager, as Pi wires it; the runtime and the server are real.
 */
import { writeFile } from "node:fs/promises";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { type AdapterRuntime, createRuntime, type Host, headlessHost } from "@pi-mcp-adapter/runtime";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APPROVAL_GRANT_ENTRY, keepApprovalGrants } from "../../src/pi/session/approval-grants.js";
import { takeTurn } from "./session-turn.js";

let temp: TempDir;
const open: AdapterRuntime[] = [];
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  for (const r of open.splice(0)) await r.shutdown();
  await temp.remove();
});

/** A host with a UI whose select dialogs answer from `answers` and are recorded. */
function uiHost(answers: string[], asked: string[]): Host {
  return {
    ...headlessHost(),
    hasUI: true,
    dialogs: {
      confirm: async () => false,
      input: async () => undefined,
      select: async (title) => {
        asked.push(title);
        return answers.shift();
      },
    },
  };
}

/** A runtime for the session `session`, its grants kept with it. */
async function sessionRuntime(session: SessionManager, host: Host, env: Record<string, string> = {}) {
  const runtime = await createRuntime({
    cwd: temp.path,
    config: {
      settings: { approveTools: true },
      mcpServers: {
        fixture: {
          command: process.execPath,
          args: [stdioFixtureServerPath],
          env: { FIXTURE_TOOLS_FILE: temp.join("tools.json"), ...env },
        },
      },
    },
    // Each runtime lists the server live: what it lists is what grants are checked against.
    metadataCacheFile: false,
    host,
  });
  open.push(runtime);
  const pi = {
    appendEntry: (type: string, data: unknown) => session.appendCustomEntry(type, data),
  } as unknown as ExtensionAPI;
  keepApprovalGrants(pi, runtime, { sessionManager: session } as unknown as ExtensionContext);
  return runtime;
}

const ran = (result: { isError?: boolean }) => result.isError !== true;

describe("session grants kept with Pi's session", () => {
  it("a server grant survives a resume, and no longer holds once the server's definition changed", async () => {
    const session = SessionManager.create(temp.path, temp.join("sessions"));
    const asked: string[] = [];
    const first = await sessionRuntime(session, uiHost(["Allow this server for the session"], asked));
    expect(ran(await first.call("fixture_echo", { text: "a" }))).toBe(true);
    expect(ran(await first.call("fixture_add", { a: 1, b: 2 }))).toBe(true);
    expect(asked).toHaveLength(1);
    takeTurn(session);
    expect(session.getEntries().filter((e) => e.type === "custom")).toMatchObject([
      { customType: APPROVAL_GRANT_ENTRY, data: { server: "fixture" } },
    ]);

    // /resume: the session file read afresh by a new SessionManager, a new runtime for it.
    const resumed = SessionManager.open(session.getSessionFile()!);
    const again: string[] = [];
    const second = await sessionRuntime(resumed, uiHost([], again));
    expect(ran(await second.call("fixture_whoami", {}))).toBe(true);
    expect(again).toEqual([]);

    // The same session with an edited server: the grant is for the old definition.
    const edited: string[] = [];
    const third = await sessionRuntime(resumed, uiHost(["Deny"], edited), { EXTRA: "1" });
    expect(ran(await third.call("fixture_whoami", {}))).toBe(false);
    expect(edited).toHaveLength(1);
  }, 60_000);

  it("a tool grant no longer holds once the tool's description changed", async () => {
    const session = SessionManager.create(temp.path, temp.join("sessions"));
    const first = await sessionRuntime(session, uiHost(["Allow for session"], []));
    expect(ran(await first.call("fixture_echo", { text: "a" }))).toBe(true);
    takeTurn(session);
    const resumed = SessionManager.open(session.getSessionFile()!);
    const same: string[] = [];
    expect(
      ran(await (await sessionRuntime(resumed, uiHost([], same))).call("fixture_echo", { text: "b" })),
    ).toBe(true);
    expect(same).toEqual([]);

    await writeFile(temp.join("tools.json"), JSON.stringify({ echo: { description: "Echo, and more." } }));
    const changed: string[] = [];
    const after = await sessionRuntime(resumed, uiHost(["Deny"], changed));
    expect(ran(await after.call("fixture_echo", { text: "c" }))).toBe(false);
    expect(changed).toHaveLength(1);
  }, 60_000);
});
