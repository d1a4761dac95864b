/**
 * Notes for the model's next turn (a watched resource changed, an MCP App
 * updated its context), added through Pi's hooks of both lines: at the start
 * of an agent run as a session message the user sees too
 * (`before_agent_start`), and before a later model request of a running
 * agent as an extra message of that request (`context`). When nothing
 * waits, neither hook adds anything: the notes cost no tokens on their own.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";

/** The `customType` of the notes' session messages. */
export const TURN_NOTE_TYPE = "mcp-adapter-note";

/**
 * Registers both hooks; `madeRuntime` gives the session's runtime once it has been made
 * (a session without one has no notes, and asking must not make one).
 */
export function registerTurnNotes(
  pi: ExtensionAPI,
  madeRuntime: (ctx: ExtensionContext) => Promise<AdapterRuntime> | undefined,
): void {
  const take = async (ctx: ExtensionContext) => {
    const runtime = await madeRuntime(ctx)?.catch(() => undefined);
    return runtime?.turnNotes.take().join("\n") || undefined;
  };
  pi.on("before_agent_start", async (_event, ctx) => {
    const content = await take(ctx);
    return content ? { message: { customType: TURN_NOTE_TYPE, content, display: true } } : undefined;
  });
  pi.on("context", async (event, ctx) => {
    const content = await take(ctx);
    if (!content) return undefined;
    const note = {
      role: "custom" as const,
      customType: TURN_NOTE_TYPE,
      content,
      display: true,
      timestamp: Date.now(),
    };
    return { messages: [...event.messages, note] };
  });
}
