/**
 * What apps send back for the model: `message` (MCP Apps `ui/message`),
 * `prompt`, `intent`, `notify` (MCP-UI actions; any other custom type is
 * forwarded as an `intent` naming it), and `close` when the user completes
 * (Cmd/Ctrl+Enter), cancels (Escape) or closes (`gone`) the window. Queued
 * until read with `mcp({ action: "ui-messages" })`.
 */

export type UiMessageType = "message" | "prompt" | "intent" | "notify" | "close";

export interface UiMessage {
  type: UiMessageType;
  /** The app window that sent it. */
  sessionId: string;
  serverName: string;
  toolName: string;
  /** ISO 8601. */
  timestamp: string;
  /** What the app sent (`message`: `{ role, content }`; `intent`: `{ intent, params }`; `close`: `{ reason: "complete" | "cancel" | "gone" }`). */
  payload: unknown;
}

/** At most this many messages wait; older ones are dropped first. */
export const MAX_QUEUED_UI_MESSAGES = 500;

export class UiMessageQueue {
  private queue: UiMessage[] = [];
  private dropped = 0;

  push(message: UiMessage): void {
    this.queue.push(message);
    if (this.queue.length > MAX_QUEUED_UI_MESSAGES) {
      this.queue.shift();
      this.dropped++;
    }
  }

  /** Every queued message, oldest first, and how many were dropped since the last read; empties the queue. */
  take(): { messages: UiMessage[]; dropped: number } {
    const taken = { messages: this.queue, dropped: this.dropped };
    this.queue = [];
    this.dropped = 0;
    return taken;
  }
}

/** The messages as the model reads them: one line each, payload as JSON. */
export function formatUiMessages(messages: UiMessage[], dropped = 0): string {
  if (messages.length === 0) return "No UI messages.";
  const lines = messages.map(
    (m) =>
      `[${m.timestamp}] ${m.type} from ${m.serverName}/${m.toolName} (session ${m.sessionId}): ${JSON.stringify(m.payload)}`,
  );
  const head = `${messages.length} UI message${messages.length === 1 ? "" : "s"}${dropped ? ` (${dropped} older dropped)` : ""}:`;
  return [head, ...lines].join("\n");
}

/**
 * The user message an app's `message`, `prompt` or `intent` starts a model
 * turn with: the text of a `ui/message`, the prompt as sent, an intent
 * named with its parameters. Undefined for other types, and for a message
 * with no text (it then waits in the queue).
 */
export function uiMessageTurnText(message: UiMessage): string | undefined {
  const payload = (message.payload ?? {}) as Record<string, unknown>;
  switch (message.type) {
    case "message": {
      const blocks = Array.isArray(payload.content) ? payload.content : [payload.content];
      const text = blocks
        .map((b) => (b as { type?: unknown; text?: unknown } | null)?.text)
        .filter((t): t is string => typeof t === "string" && t.trim() !== "")
        .join("\n");
      return text || undefined;
    }
    case "prompt":
      return typeof payload.prompt === "string" && payload.prompt.trim() ? payload.prompt : undefined;
    case "intent": {
      if (typeof payload.intent !== "string") return undefined;
      const params = payload.params === undefined ? "" : ` ${JSON.stringify(payload.params)}`;
      return `The ${message.serverName} app (${message.toolName}) asks for: ${payload.intent}${params}`;
    }
    default:
      return undefined;
  }
}
