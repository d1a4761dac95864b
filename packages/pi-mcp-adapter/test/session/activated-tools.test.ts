/**
 * Activated `"search"` tools kept with Pi's session, read back through Pi's
 * real SessionManager (a session file on disk): only the entries on the
 * current branch path count, entries before a compaction still count, a
 * resumed file gives the same set, and malformed entries are skipped.
 * `pi` here is only `appendEntry` wired to that SessionManager, as Pi wires it.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ACTIVATED_TOOLS_ENTRY,
  activatedOnBranch,
  recordActivatedTools,
} from "../../src/pi/session/activated-tools.js";
import { takeTurn } from "./session-turn.js";

let temp: TempDir;
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  await temp.remove();
});

const piFor = (session: SessionManager) =>
  ({
    appendEntry: (type: string, data: unknown) => session.appendCustomEntry(type, data),
  }) as unknown as ExtensionAPI;
const ctxFor = (session: SessionManager) => ({ sessionManager: session }) as unknown as ExtensionContext;

describe("activated tools kept with Pi's session", () => {
  it("counts the entries on the current branch path only, across compaction and resume", () => {
    const session = SessionManager.create(temp.path, temp.join("sessions"));
    const pi = piFor(session);
    const fork = takeTurn(session, "first");
    recordActivatedTools(pi, ["docs_read"]);
    takeTurn(session, "second");
    recordActivatedTools(pi, ["docs_list"]);
    recordActivatedTools(pi, []);
    const tip = takeTurn(session, "third");
    expect([...activatedOnBranch(ctxFor(session))]).toEqual(["docs_read", "docs_list"]);

    // /tree back to the first answer and on from there: docs_list was activated on the other branch.
    session.branch(fork);
    takeTurn(session, "elsewhere");
    expect([...activatedOnBranch(ctxFor(session))]).toEqual([]);
    recordActivatedTools(pi, ["docs_write"]);
    expect([...activatedOnBranch(ctxFor(session))]).toEqual(["docs_write"]);

    // Back to the first branch, compacted: what was activated before the compaction still counts.
    session.branch(tip);
    session.appendCompaction("summary", tip, 1000);
    takeTurn(session, "after compaction");
    expect([...activatedOnBranch(ctxFor(session))]).toEqual(["docs_read", "docs_list"]);

    // /resume or --continue: the file read afresh gives the same set for its leaf.
    const resumed = SessionManager.open(session.getSessionFile()!);
    expect([...activatedOnBranch(ctxFor(resumed))]).toEqual(["docs_read", "docs_list"]);
  });

  it("skips malformed entries, and a context without a session reads nothing", () => {
    const session = SessionManager.create(temp.path, temp.join("sessions"));
    session.appendCustomEntry(ACTIVATED_TOOLS_ENTRY, { tools: "docs_read" });
    session.appendCustomEntry(ACTIVATED_TOOLS_ENTRY, { tools: [1, "docs_list"] });
    session.appendCustomEntry(ACTIVATED_TOOLS_ENTRY, null);
    session.appendCustomEntry("other-extension", { tools: ["x"] });
    expect([...activatedOnBranch(ctxFor(session))]).toEqual(["docs_list"]);
    expect([...activatedOnBranch({} as ExtensionContext)]).toEqual([]);
  });
});
