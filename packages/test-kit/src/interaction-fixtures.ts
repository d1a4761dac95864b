/**
 * Pieces for tests where a server, a user and the test take turns: a gate
 * (a promise one side awaits and the other opens), and a tool whose call
 * sends the user to a web page and waits for the browser step the test
 * completes. Time never passes by itself in these: each step is an event.
 */
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { FixtureTool } from "./servers/fixture-server.js";

/** A promise (`opened`) and the function that settles it (`open`). */
export interface Gate<T = void> {
  open(value: T): void;
  opened: Promise<T>;
}

export function gate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A tool sending the user to `url`, and the test's controls of what happens next. */
export interface BrowserStepTool {
  tool: FixtureTool;
  /** The user finished in the browser: the server sends `notifications/elicitation/complete`. */
  browserDone(): void;
  /** The server answers the call, with the action the client answered the URL request with. */
  finish(): void;
}

/**
 * `name`: sends `elicitation/create` in URL mode (`url`, `elicitationId`),
 * then waits for `browserDone()`, sends `notifications/elicitation/complete`
 * for the id, waits for `finish()` and answers with the client's answer as
 * JSON.
 */
export function browserStepTool(name: string, url: string, elicitationId: string): BrowserStepTool {
  const done = gate();
  const finished = gate();
  const tool: FixtureTool = {
    name,
    handler: async (_args, extra) => {
      const answer = await extra.sendRequest(
        { method: "elicitation/create", params: { mode: "url", message: "Sign in", url, elicitationId } },
        ElicitResultSchema,
      );
      await done.opened;
      await extra.sendNotification({
        method: "notifications/elicitation/complete",
        params: { elicitationId },
      });
      await finished.opened;
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    },
  };
  return { tool, browserDone: () => done.open(), finish: () => finished.open() };
}
