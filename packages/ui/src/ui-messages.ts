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
