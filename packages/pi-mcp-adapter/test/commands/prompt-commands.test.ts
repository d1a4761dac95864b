/**
 * Prompt slash commands through the Pi command API (registerCommand,
 * getArgumentCompletions, sendUserMessage), against server-everything.
 */
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { createRuntime } from "@pi-mcp-adapter/runtime";
import { loadStartupSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { createTempDir, faultServerPath, serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { PromptCommands, promptsSubcommand } from "../../src/pi/commands/prompt-commands.js";

const config = { mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } } };

type Command = {
  description: string;
  handler: (args: string, ctx: ExtensionCommandContext) => Promise<void>;
  getArgumentCompletions: (prefix: string) => Promise<{ value: string; label: string }[] | null>;
};

function fakePi() {
  const commands = new Map<string, Command>();
  const sent: unknown[] = [];
  const notes: { message: string; level: string }[] = [];
  // The preview: each title shown, and the answer (Use prompt unless a test queues another).
  const previews: { title: string; choices: string[] }[] = [];
  const answers: (string | undefined)[] = [];
  const pi = {
    registerCommand: (name: string, options: Command) => commands.set(name, options),
    sendUserMessage: (content: unknown) => sent.push(content),
  } as unknown as ExtensionAPI;
  const ctx = {
    cwd: "/",
    hasUI: true,
    isIdle: () => true,
    waitForIdle: async () => {},
    ui: {
      notify: (message: string, level = "info") => notes.push({ message, level }),
      select: async (title: string, choices: string[]) => {
        previews.push({ title, choices });
        return answers.length ? answers.shift() : "Use prompt";
      },
    },
  } as unknown as ExtensionCommandContext;
  return { pi, ctx, commands, sent, notes, previews, answers };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanup.splice(0)) await done();
});

async function setUp() {
  const dir = await createTempDir();
  const runtime = await createRuntime({ cwd: dir.path, config, metadataCacheFile: dir.join("cache.json") });
  cleanup.push(async () => {
    await runtime.shutdown();
    await dir.remove();
  });
  const host = fakePi();
  const prompts = new PromptCommands(host.pi, async () => runtime);
  prompts.attach(runtime);
  await runtime.catalog.prompts();
  return { ...host, runtime, prompts, dir };
}

describe("prompt commands", () => {
  it("registers /mcp__everything__* once listed; key=value and positional arguments become one user message", async () => {
    const { commands, ctx, sent, notes } = await setUp();
    expect([...commands.keys()]).toEqual(
      expect.arrayContaining([
        "mcp__everything__simple-prompt",
        "mcp__everything__args-prompt",
        "mcp__everything__completable-prompt",
      ]),
    );
    const args = commands.get("mcp__everything__args-prompt")!;
    expect(args.description).toBe(
      "MCP prompt (everything): A prompt with two arguments, one required and one optional",
    );
    await args.handler(`city="San Francisco" state=CA`, ctx);
    await args.handler(`Lyon`, ctx);
    expect(sent).toEqual(["What's weather in San Francisco, CA?", "What's weather in Lyon?"]);
    expect(notes).toEqual([]);
  });

  it("describes a command by the first line of a docstring-style prompt description that is not blank", async () => {
    await using dir = await createTempDir();
    const idx = { command: process.execPath, args: [faultServerPath], env: { FAULT_MODE: "failing-lists" } };
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: { idx } },
      metadataCacheFile: false,
    });
    cleanup.push(() => runtime.shutdown());
    const host = fakePi();
    new PromptCommands(host.pi, async () => runtime).attach(runtime);
    await runtime.catalog.prompts();
    expect(host.commands.get("mcp__idx__summary")?.description).toBe(
      "MCP prompt (idx): Summarise the echo log.",
    );
  });

  it("previews the messages first: Use prompt sends them, Cancel or Esc sends nothing; headless sends at once", async () => {
    const { commands, ctx, sent, previews, answers } = await setUp();
    const args = commands.get("mcp__everything__args-prompt")!;
    answers.push("Cancel", undefined);
    await args.handler("Oslo", ctx);
    await args.handler("Bergen", ctx);
    expect(sent).toEqual([]);
    expect(previews.map((p) => p.choices)).toEqual([
      ["Use prompt", "Cancel"],
      ["Use prompt", "Cancel"],
    ]);
    expect(previews[0]?.title).toBe(
      "/mcp__everything__args-prompt: what the prompt adds to the conversation\n\nWhat's weather in Oslo?",
    );
    await args.handler("Tromsø", ctx);
    expect(sent).toEqual(["What's weather in Tromsø?"]);
    // Print and json modes have no dialog: the prompt goes straight to the model, as before.
    // (Not idle: the command then waits only for the turn it queued, which this fake ends at once.)
    await args.handler("Bodø", { ...ctx, hasUI: false, isIdle: () => false } as ExtensionCommandContext);
    expect(sent).toEqual(["What's weather in Tromsø?", "What's weather in Bodø?"]);
    expect(previews).toHaveLength(3);
  });

  it("/mcp-adapter prompts lists every prompt with its command and arguments", async () => {
    const { ctx, notes, runtime } = await setUp();
    await runAdapterCommand([promptsSubcommand(async () => runtime)], "prompts", ctx);
    expect(notes).toHaveLength(1);
    const text = notes[0]!.message;
    expect(text).toMatch(/^MCP prompts \(\d+\):/);
    expect(text).toContain(
      "- /mcp__everything__args-prompt <city> [state] — A prompt with two arguments, one required and one optional\n    city (required): Name of the city\n    state (optional)",
    );
    expect(text).toContain("- /mcp__everything__completable-prompt <department> <name>");
  });

  it("a prompt of several messages keeps [user] markers; its embedded resources pass the output guard", async () => {
    const { commands, ctx, sent, notes } = await setUp();
    await commands.get("mcp__everything__resource-prompt")!.handler("Text 4", ctx);
    expect(notes).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(
      /^\[user\]\nThis prompt includes the Text resource with id: 4\. Please analyze the following resource:\n\n\[user\]\n\n\[resource demo:\/\/resource\/dynamic\/text\/4 \(text\/plain\)\]\nResource 4: This is a plaintext resource/,
    );
    // A blob becomes a private file the message names, never inline base64.
    await commands.get("mcp__everything__resource-prompt")!.handler("resourceType=Blob resourceId=2", ctx);
    expect(sent[1]).toMatch(/saved to \/\S+/);
    expect(sent[1]).not.toContain(Buffer.from("Resource 2:").toString("base64"));
  });

  it("refuses a missing required argument with the usage, sending nothing", async () => {
    const { commands, ctx, sent, notes } = await setUp();
    await commands.get("mcp__everything__args-prompt")!.handler("state=CA", ctx);
    expect(sent).toEqual([]);
    expect(notes).toEqual([
      {
        level: "warning",
        message:
          "Prompt args-prompt needs argument city. Usage: /mcp__everything__args-prompt <city> [state] (or by name: city=… state=…)",
      },
    ]);
  });

  it("offers the server's completions for the argument being typed, narrowed by earlier ones", async () => {
    const { commands } = await setUp();
    const complete = commands.get("mcp__everything__completable-prompt")!.getArgumentCompletions;
    expect((await complete("S"))?.map((i) => i.value)).toEqual(["Sales ", "Support "]);
    expect((await complete("Engineering "))?.map((i) => i.label)).toEqual(["Alice", "Bob", "Charlie"]);
    expect((await complete("department=Marketing name=I"))?.map((i) => i.value)).toEqual([
      "department=Marketing name=Iris ",
    ]);
    expect(await complete("Sales Eve ")).toBeNull();
  });

  it("registers from the startup snapshot's cache, and a disabled server's commands answer clearly", async () => {
    const { dir, runtime } = await setUp();
    // The first session cached the listing; a new process registers the commands before any server runs.
    const snapshot = await loadStartupSnapshot({
      cwd: dir.path,
      config,
      metadataCacheFile: dir.join("cache.json"),
    });
    const next = fakePi();
    const prompts = new PromptCommands(next.pi, async () => runtime);
    prompts.fromSnapshot(snapshot);
    expect(next.commands.has("mcp__everything__args-prompt")).toBe(true);
    prompts.attach(runtime);
    await runtime.replace(runtime.listings.summaries().map(() => ({ ...disabledEverything() })));
    expect(prompts.active()).toEqual([]);
    await next.commands.get("mcp__everything__args-prompt")!.handler("Paris", next.ctx);
    expect(next.sent).toEqual([]);
    expect(next.notes[0]?.message).toMatch(/^\/mcp__everything__args-prompt is no longer offered/);
  });
});

function disabledEverything() {
  return {
    name: "everything",
    transport: "stdio" as const,
    command: process.execPath,
    args: [serverEverythingPath],
    lifecycle: "lazy" as const,
    protocol: "legacy" as const,
    disabled: true,
    source: { file: "inline", key: "mcpServers.everything" },
  };
}
