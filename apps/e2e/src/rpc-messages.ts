/**
 * Pi's `--mode rpc` output, parsed: one JSON message per line. Lines are split
 * on "\n" only (readline would also split inside strings holding U+2028), and
 * bytes are decoded as a stream so a character cut between chunks stays whole.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";

export interface RpcMessage {
  type?: string;
  id?: string;
  method?: string;
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
  [key: string]: unknown;
}

/** The messages on `stdout`, in order; `raw` sees the decoded text as it arrives. */
export async function* rpcMessages(
  stdout: AsyncIterable<Buffer | string>,
  raw?: (text: string) => void,
): AsyncGenerator<RpcMessage> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const data of stdout) {
    const text = typeof data === "string" ? data : decoder.decode(data, { stream: true });
    raw?.(text);
    buffered += text;
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, "");
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (line.trim()) yield JSON.parse(line) as RpcMessage;
    }
  }
}

/** A dialog Pi forwarded in RPC mode. */
export interface UiRequest {
  method: string;
  title: string;
  options?: string[];
  message?: string;
  placeholder?: string;
}

/** The answer to one dialog: a value, `true`/`false` for confirm, or `undefined` to dismiss it. */
export type UiAnswer = string | boolean | undefined;

export interface RpcPromptOptions {
  /** Sees every message before it is handled (status lines, events); `send` writes a command to Pi (e.g. abort). */
  onMessage?: (message: RpcMessage, send: (command: unknown) => void) => void;
}

/**
 * Sends one prompt to a Pi started in RPC mode and waits for `agent_end`,
 * answering each select/input/confirm dialog with `answer` (editor dialogs
 * are dismissed); an answer may take its time (a promise), holding the
 * dialog open meanwhile. `options.onMessage` sees every message first
 * (`setStatus`, `notify`, events…). Returns every dialog shown; throws if Pi ends first.
 */
export async function runRpcPrompt(
  child: ChildProcessWithoutNullStreams,
  prompt: string,
  answer: (request: UiRequest) => UiAnswer | Promise<UiAnswer>,
  options: RpcPromptOptions = {},
): Promise<UiRequest[]> {
  const shown: UiRequest[] = [];
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill(), 90_000);
  try {
    send({ id: "p1", type: "prompt", message: prompt });
    for await (const message of rpcMessages(child.stdout)) {
      options.onMessage?.(message, send);
      if (message.type === "agent_end") return shown;
      if (message.type !== "extension_ui_request") continue;
      if (message.method === "editor") {
        send({ type: "extension_ui_response", id: message.id, cancelled: true });
      } else if (["select", "input", "confirm"].includes(message.method ?? "")) {
        const { title = "", options, message: text, placeholder } = message;
        const request: UiRequest = {
          method: message.method as string,
          title,
          options,
          message: text,
          placeholder,
        };
        shown.push(request);
        const value = await answer(request);
        if (value === undefined) send({ type: "extension_ui_response", id: message.id, cancelled: true });
        else if (typeof value === "boolean")
          send({ type: "extension_ui_response", id: message.id, confirmed: value });
        else send({ type: "extension_ui_response", id: message.id, value });
      }
    }
    throw new Error(`Pi ended before agent_end:\n${stderr}`);
  } finally {
    clearTimeout(timer);
    child.kill();
  }
}
