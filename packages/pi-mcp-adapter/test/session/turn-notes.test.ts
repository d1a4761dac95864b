/**
 * `/mcp-adapter watch` / `unwatch` and the next-turn notes through Pi's hook
 * API (`before_agent_start`, `context`), with a real runtime and the
 * test-kit watch fixture server on stdio (its resource changes when the
 * test writes its file). Pi's API object is a stand-in that keeps the
 * handlers; the real Pi runs the same path in apps/e2e's resource-watch-tmux test.
 */
import { writeFile } from "node:fs/promises";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { type AdapterRuntime, createRuntime, headlessHost } from "@pi-mcp-adapter/runtime";
import { createTempDir, watchFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { watchSubcommands } from "../../src/pi/commands/watch-command.js";
import { registerTurnNotes, TURN_NOTE_TYPE } from "../../src/pi/session/turn-notes.js";
import { noticeContext } from "./notice-context.js";

type Handler = (event: unknown, ctx: unknown) => Promise<unknown>;
const NOTE = "MCP resource changed: notes · note://todo (read it again to see the new content)";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

async function setUp() {
  const dir = await createTempDir();
  const file = dir.join("todo.txt");
  await writeFile(file, "buy milk");
  const config = {
    mcpServers: {
      notes: { command: process.execPath, args: [watchFixtureServerPath], env: { WATCH_FIXTURE_FILE: file } },
    },
  };
  const { ctx, notes } = noticeContext(dir.path);
  // The runtime's notices (an update) and the command's land in one list, as on Pi's screen.
  const host = headlessHost({ notify: (message) => notes.push(message) });
  const runtime: AdapterRuntime = await createRuntime({
    cwd: dir.path,
    config,
    metadataCacheFile: false,
    host,
  });
  cleanup.push(async () => {
    await runtime.shutdown();
    await dir.remove();
  });
  const handlers = new Map<string, Handler>();
  const pi = {
    on: (event: string, handler: Handler) => handlers.set(event, handler),
  } as unknown as ExtensionAPI;
  registerTurnNotes(pi, async () => runtime);
  const run = (line: string) =>
    runAdapterCommand(
      watchSubcommands(async () => runtime),
      line,
      ctx,
    );
  return { runtime, handlers, ctx, notes, run, file };
}

describe("watch commands and next-turn notes", () => {
  it("nothing is added while nothing changed; an update is one note, at the run's start or before the next request", async () => {
    const { handlers, ctx, notes, run, file } = await setUp();
    const start = handlers.get("before_agent_start")!;
    const context = handlers.get("context")!;
    const messages = [{ role: "user", content: "hi", timestamp: 1 }];
    expect(await start({}, ctx)).toBeUndefined();
    expect(await context({ messages }, ctx)).toBeUndefined();

    await run("watch notes note://todo");
    expect(notes.at(-1)).toBe(
      "Watching notes · note://todo: a notice when it changes, and a note for the model's next turn (until the session ends).",
    );
    await writeFile(file, "buy bread");
    await vi.waitFor(() => expect(notes.at(-1)).toBe("MCP resource updated: notes · note://todo"), 20_000);
    expect(await start({}, ctx)).toEqual({
      message: { customType: TURN_NOTE_TYPE, content: NOTE, display: true },
    });
    expect(await context({ messages }, ctx)).toBeUndefined();

    // An update while the agent runs reaches its next request as an extra message.
    await writeFile(file, "buy cheese");
    await vi.waitFor(
      () => expect(notes.filter((n) => n.startsWith("MCP resource updated"))).toHaveLength(2),
      20_000,
    );
    const result = (await context({ messages }, ctx)) as { messages: unknown[] };
    expect(result.messages).toEqual([
      ...messages,
      {
        role: "custom",
        customType: TURN_NOTE_TYPE,
        content: NOTE,
        display: true,
        timestamp: expect.any(Number),
      },
    ]);
    expect(await context({ messages }, ctx)).toBeUndefined();
  });

  it("lists watches, says what is wrong with bad input, and unwatches", async () => {
    const { notes, run } = await setUp();
    await run("watch");
    expect(notes.at(-1)).toBe("No resources watched. Start with /mcp-adapter watch <server> <uri>.");
    await run("watch notes");
    expect(notes.at(-1)).toBe("Usage: /mcp-adapter watch <server> <uri>");
    await run("watch nope note://x");
    expect(notes.at(-1)).toBe('pi-mcp-adapter: Unknown MCP server "nope" (configured: notes)');
    await run("watch notes note://todo");
    await run("watch");
    expect(notes.at(-1)).toBe("Watched resources (1):\n  notes · note://todo — no updates yet");
    await run("unwatch notes note://todo");
    expect(notes.at(-1)).toBe("Stopped watching notes · note://todo.");
    await run("unwatch notes note://todo");
    expect(notes.at(-1)).toBe(
      "notes · note://todo was not watched.\nNo resources watched. Start with /mcp-adapter watch <server> <uri>.",
    );
  });
});
