/**
 * A user prompt and an assistant answer appended to one of Pi's real
 * SessionManagers, as Pi appends them: Pi writes a session file only once
 * the first assistant message is in, and `/tree` moves between answers.
 */
import type { SessionManager } from "@mariozechner/pi-coding-agent";

/** Appends a turn; returns the assistant entry's id (a point `/tree` can move to). */
export function takeTurn(session: SessionManager, text = "hi"): string {
  session.appendMessage({ role: "user", content: text, timestamp: Date.now() });
  return session.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    api: "openai-completions",
    provider: "fake",
    model: "fake",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  });
}
