/**
 * MCP prompts as Pi slash commands, `/mcp__<server>__<prompt> [args]`.
 *
 * Commands are registered from the startup snapshot's cached listings (so
 * they exist before the first model request), then kept in step with the
 * session's runtime: a server's first listing, a reconnect and
 * `prompts/list_changed` add new prompts; a prompt that is gone (its server
 * disabled or removed, or the prompt withdrawn) keeps its command, since Pi
 * cannot unregister one, but the command says so instead of running.
 *
 * Arguments are parsed as the CLI parses them (`prompts/prompt-arguments.ts`:
 * positional and `key=value`, shell-like quoting); required ones are checked
 * before `prompts/get`. The result, after
 * approval and the output guard, is previewed where Pi has a UI
 * (`prompt-preview.ts`): only **Use prompt** sends it to the model as one
 * user message and starts a turn. Without a UI (print and json modes) it is
 * sent at once.
 */
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import {
  descriptionFirstLine,
  type PromptEntry,
  promptEntries,
  type StartupSnapshot,
} from "@pi-mcp-adapter/runtime/startup";
import { completionPoint, parsePromptArguments, quoteWord } from "../../prompts/prompt-arguments.js";
import { formatPromptList } from "../../prompts/prompt-list.js";
import { promptUserMessage } from "../../prompts/prompt-message.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";
import { confirmPromptUse } from "./prompt-preview.js";

/** `/mcp-adapter prompts`: every prompt with its command and arguments (listing servers not listed yet). */
export function promptsSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "prompts",
    args: "",
    summary: "every MCP prompt, its slash command and its arguments",
    run: async (_words, ctx) => {
      const listed = await (await runtimeFor(ctx)).catalog.prompts();
      ctx.ui.notify(formatPromptList(listed.prompts, listed.unavailable), "info");
    },
  };
}

/** How long the editor waits for a server's completions before offering none. */
const COMPLETION_TIMEOUT_MS = 3000;

export class PromptCommands {
  /** Every command registered in this process, by name; the entry is `undefined` while its prompt is gone. */
  private readonly commands = new Map<string, PromptEntry | undefined>();
  /** The runtime the editor's completions ask (the session's, once it exists). */
  private runtime: AdapterRuntime | undefined;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly runtimeFor: RuntimeFor,
  ) {}

  /** Registers the prompts of the snapshot's cached listings. */
  fromSnapshot(snapshot: StartupSnapshot): void {
    for (const s of snapshot.servers) {
      // A listing without prompts needs no metadata (which is built on first read).
      const entries = s.listing?.prompts?.length ? promptEntries(s.server.name, s.listing, s.metadata) : [];
      this.sync(s.server.name, entries);
    }
  }

  /**
   * Follows a session's runtime: listings loaded or changed, and servers that
   * connect, are disabled or go away. Returns the function that stops following.
   */
  attach(runtime: AdapterRuntime): () => void {
    this.runtime = runtime;
    const refresh = (server: string) => this.sync(server, runtime.catalog.knownPrompts(server));
    const stopListing = runtime.listings.onChange(refresh);
    const stopStatus = runtime.servers.onStatus((status) => {
      refresh(status.name);
      // "Refreshed on connect": a server that connects is listed if this session has not listed it yet.
      if (status.state === "connected") void runtime.catalog.prompts(status.name).catch(() => {});
    });
    for (const { name } of runtime.listings.summaries()) refresh(name);
    return () => {
      stopListing();
      stopStatus();
      if (this.runtime === runtime) this.runtime = undefined;
    };
  }

  /** The commands of `server` become exactly `entries`; new ones are registered. */
  sync(server: string, entries: readonly PromptEntry[]): void {
    const current = new Set(entries.map((e) => e.command));
    for (const [command, entry] of this.commands) {
      if (entry?.server === server && !current.has(command)) this.commands.set(command, undefined);
    }
    for (const entry of entries) {
      const known = this.commands.has(entry.command);
      this.commands.set(entry.command, entry);
      if (!known) this.register(entry);
    }
  }

  /** Names of the commands whose prompts are offered now. */
  active(): string[] {
    return [...this.commands].filter(([, entry]) => entry).map(([name]) => name);
  }

  private register(first: PromptEntry): void {
    const name = first.command;
    const about = descriptionFirstLine(first.prompt.description) || first.prompt.title || first.prompt.name;
    this.pi.registerCommand(name, {
      description: `MCP prompt (${first.server}): ${about}`,
      getArgumentCompletions: (prefix) => this.complete(name, prefix),
      handler: (args, ctx) => this.run(name, args, ctx),
    });
  }

  private async run(name: string, line: string, ctx: ExtensionCommandContext): Promise<void> {
    const entry = this.commands.get(name);
    if (!entry) {
      ctx.ui.notify(
        `/${name} is no longer offered: its MCP server is disabled or gone, or no longer has this prompt. See /mcp-adapter prompts.`,
        "warning",
      );
      return;
    }
    const parsed = parsePromptArguments(line, entry.prompt, name);
    if (!parsed.ok) {
      ctx.ui.notify(parsed.message, "warning");
      return;
    }
    try {
      const runtime = await this.runtimeFor(ctx);
      const result = await runtime.run({
        target: { kind: "prompt", server: entry.server, name: entry.prompt.name },
        args: parsed.args,
      });
      if (result.isError) {
        const reason = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
        ctx.ui.notify(`/${name}: ${reason}`, "warning");
        return;
      }
      // Cancel adds nothing (the arguments already sent to the server cannot be recalled).
      if (ctx.hasUI && !(await confirmPromptUse(ctx, name, result.content))) return;
      const message = promptUserMessage(result);
      // While the agent works, the prompt waits its turn rather than steering the running one.
      this.pi.sendUserMessage(message, ctx.isIdle() ? undefined : { deliverAs: "followUp" });
      // Without a UI (print and json modes) Pi ends once the command returns: stay for the turn it started.
      if (!ctx.hasUI) await turnStartedAndDone(ctx);
    } catch (error) {
      ctx.ui.notify(`/${name}: ${describeError(error)}`, "error");
    }
  }

  /** The editor's completions: the server's values for the argument being typed, as whole argument lines. */
  private async complete(name: string, prefix: string) {
    const entry = this.commands.get(name);
    const runtime = this.runtime;
    if (!entry || !runtime) return null;
    const point = completionPoint(prefix, entry.prompt);
    if (!point) return null;
    const request = {
      ref: { type: "ref/prompt" as const, name: entry.prompt.name },
      argument: { name: point.argument, value: point.value },
      ...(Object.keys(point.context).length ? { context: point.context } : {}),
    };
    try {
      const signal = AbortSignal.timeout(COMPLETION_TIMEOUT_MS);
      const { values } = await runtime.catalog.complete(entry.server, request, signal);
      if (values.length === 0) return null;
      return values.map((value) => ({
        value: `${point.head}${point.key}${quoteWord(value)} `,
        label: value,
        description: point.argument,
      }));
    } catch {
      return null;
    }
  }
}

/** How long a headless command waits for the turn it started to begin. */
const TURN_START_WAIT_MS = 5000;

/** Waits until the agent has started working (or a while has passed), then until it is idle again. */
async function turnStartedAndDone(ctx: ExtensionCommandContext): Promise<void> {
  const deadline = Date.now() + TURN_START_WAIT_MS;
  while (ctx.isIdle() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await ctx.waitForIdle();
}
