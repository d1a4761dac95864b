/**
 * MCP tasks kept with Pi's session, so a task outlives the Pi process that
 * started it: each task a call starts, and each that ends, is a custom
 * session entry; a runtime made for a session follows again the tasks its
 * entries leave open (after a crash, `pi --continue`, `/resume`); and the
 * result of a task followed again reaches the model as the result of the
 * tool call that started it (Pi would otherwise send "No result provided"
 * for that call), or — where that call is not in the context — as a note
 * that the task finished while the user was away.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { appendSessionEntry, sessionEntryData } from "./session-entries.js";

/** The `customType` of the session entries holding task records. */
export const TASK_RECORD_ENTRY = "pi-mcp-adapter:task";

type RecordEvent = Parameters<Parameters<AdapterRuntime["tasks"]["onRecord"]>[0]>[0];
type Outcome = NonNullable<Extract<RecordEvent, { kind: "ended" }>["outcome"]>;

/** How long the model's next request waits for tasks followed again to be checked once. */
const CHECK_WAIT_MS = 15_000;

/** The records of tasks started and not ended, and the outcomes of tasks that ended after a restart. */
function readEntries(ctx: Pick<ExtensionContext, "sessionManager">) {
  const started = new Map<string, unknown>();
  const outcomes: Outcome[] = [];
  for (const data of sessionEntryData(ctx, TASK_RECORD_ENTRY, "all-branches")) {
    const event = data as Partial<RecordEvent> | undefined;
    if (event?.kind === "started" && event.record) started.set(keyOf(event.record), event.record);
    if (event?.kind === "ended" && typeof event.server === "string" && typeof event.taskId === "string") {
      started.delete(keyOf(event as { server: string; taskId: string }));
      if (event.outcome && typeof event.outcome.text === "string") outcomes.push(event.outcome);
    }
  }
  return { open: [...started.values()], outcomes };
}

function keyOf(task: { server?: unknown; taskId?: unknown }): string {
  return `${String(task.server)}\u0000${String(task.taskId)}`;
}

/** Whether the session has tasks to follow again (its runtime is then made at session start). */
export function hasOpenTasks(ctx: Pick<ExtensionContext, "sessionManager">): boolean {
  return readEntries(ctx).open.length > 0;
}

/** The session's task outcomes, and the `context` hook that hands them to the model. */
export class TaskRecords {
  private outcomes: Outcome[] = [];
  /** Outcomes without their call in the context, already noted once. */
  private readonly noted = new Set<Outcome>();
  /** Settles once the tasks followed again have been checked once (see `attach`). */
  private checked: Promise<void> = Promise.resolve();
  private resumed: ((checked: Promise<void>) => void) | undefined;

  constructor(private readonly pi: ExtensionAPI) {
    pi.on("context", async (event) => {
      const messages = await this.apply(event.messages as unknown as Message[]);
      return messages ? { messages: messages as never } : undefined;
    });
  }

  /** A session starts: the outcomes its entries hold (those of earlier processes). */
  sessionStarted(ctx: Pick<ExtensionContext, "sessionManager">): void {
    const { open, outcomes } = readEntries(ctx);
    this.outcomes = outcomes;
    this.noted.clear();
    // Open tasks: the session's runtime (made at start for them) follows them; the model's request waits for that.
    this.checked = open.length
      ? new Promise<void>((resolve) => {
          this.resumed = (checked) => void checked.then(resolve);
        })
      : Promise.resolve();
  }

  /** A runtime made for the session: stores each record as an entry, and follows the open tasks again. */
  attach(runtime: AdapterRuntime, ctx: ExtensionContext): void {
    const session = safely(() => ctx.sessionManager.getSessionFile());
    runtime.tasks.setSession(session);
    runtime.tasks.onRecord((event) => {
      appendSessionEntry(this.pi, TASK_RECORD_ENTRY, event);
      if (event.kind !== "ended" || !event.outcome) return;
      this.outcomes.push(event.outcome);
      if (ctx.hasUI)
        ctx.ui.notify(
          `MCP task ${event.outcome.server} · ${event.outcome.tool}: ${event.outcome.status}`,
          "info",
        );
    });
    const { open } = readEntries(ctx);
    const checked = runtime.tasks.resume(open).catch(() => {});
    this.resumed?.(checked);
    this.resumed = undefined;
  }

  /** The context with each outcome as its call's result (or a note); undefined when nothing changes. */
  private async apply(messages: Message[]): Promise<Message[] | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.checked, new Promise((r) => (timer = setTimeout(r, CHECK_WAIT_MS)))]);
    clearTimeout(timer);
    if (this.outcomes.length === 0) return undefined;
    const answered = new Set(messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])));
    const byCall = new Map(this.outcomes.flatMap((o) => (o.callId ? [[o.callId, o] as const] : [])));
    const used = new Set<Outcome>();
    const out: Message[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as Message;
      out.push(message);
      if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
      // The results go after the message's own answered calls, where Pi would put them.
      while (messages[i + 1]?.role === "toolResult") out.push(messages[++i] as Message);
      for (const block of message.content) {
        const outcome = block.type === "toolCall" ? byCall.get(block.id as string) : undefined;
        if (!outcome || answered.has(block.id as string)) continue;
        used.add(outcome);
        out.push(toolResultOf(block.id as string, block.name as string, outcome));
      }
    }
    const notes = this.outcomes.filter((o) => !used.has(o) && !this.noted.has(o));
    for (const outcome of notes) this.noted.add(outcome);
    if (notes.length) out.push(noteOf(notes));
    return used.size || notes.length ? out : undefined;
  }
}

type Message = {
  role: string;
  toolCallId?: string;
  content?: { type: string; id?: unknown; name?: unknown }[] | string;
  [key: string]: unknown;
};

function toolResultOf(id: string, name: string, outcome: Outcome): Message {
  const prefix = `(This MCP task finished after a restart of Pi: ${outcome.status}.)\n`;
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: name,
    content: [{ type: "text", text: `${prefix}${outcome.text}` }] as never,
    isError: outcome.isError,
    timestamp: Date.now(),
  };
}

function noteOf(outcomes: Outcome[]): Message {
  const lines = outcomes.map(
    (o) => `MCP task ${o.server} · ${o.tool} finished while you were away (${o.status}):\n${o.text}`,
  );
  return {
    role: "custom",
    customType: "mcp-adapter-note",
    content: lines.join("\n\n"),
    display: true,
    timestamp: Date.now(),
  };
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
