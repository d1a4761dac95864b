/**
 * The wait after the user agreed to open a server's URL: the server now
 * waits while the user completes the page in the browser, and that time is
 * the user's, not the server's. So the server's request timeouts are held
 * and a dialog says what is going on; it closes by itself when the server
 * sends `notifications/elicitation/complete` for the elicitation, when the
 * calls to that server end, or when the user stops waiting (the timeouts
 * then run again).
 */
import type { HandlerContext } from "@pi-mcp-adapter/transport";
import type { Host } from "../host.js";
import type { DialogQueue } from "./dialog-queue.js";

/** The one choice of the waiting dialog. */
export const URL_STOP_WAITING = "Stop waiting";

/**
 * Holds `server`'s timeouts until the browser step of `elicitationId` is
 * over, showing the waiting dialog when the queue's turn comes. Resolves
 * when the wait is over, whichever way.
 */
export async function waitForBrowserStep(
  host: Host,
  queue: DialogQueue,
  request: { server: string; elicitationId: string; host: string },
  context: HandlerContext,
): Promise<void> {
  const release = context.holdTimeouts();
  const completed = new AbortController();
  const off = context.onNotification((n) => {
    if (n.kind === "elicitation/complete" && n.elicitationId === request.elicitationId) completed.abort();
  });
  const over = AbortSignal.any([completed.signal, context.callEnded]);
  const title = [
    `MCP server "${request.server}" is waiting for you to finish in your browser (${request.host}).`,
    "This closes by itself when the server sees the step done; until then its request timeout is paused.",
  ].join("\n");
  try {
    await queue(async () => {
      if (!over.aborted) await host.dialogs.select(title, [URL_STOP_WAITING], { signal: over });
    });
  } finally {
    off();
    release();
  }
}
