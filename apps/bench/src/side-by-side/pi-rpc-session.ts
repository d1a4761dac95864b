/**
 * One long-lived real Pi session in `--mode rpc` for the shared-servers bench:
 * it waits for Pi to answer `get_state`, sends a prompt and waits for the
 * agent run to end, and keeps every tool execution's end event (with Pi's own
 * `durationMs`, measured around the tool's `execute()`), so the caller reads
 * what each call took and returned. Dialogs are cancelled (none is expected).
 * Every wait polls a condition against a generous deadline and fails early,
 * with Pi's stderr, when Pi exits.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { type RpcMessage, rpcMessages } from "@pi-mcp-adapter/e2e/rpc-messages";

const DEADLINE_MS = 180_000;

export interface ToolExecution {
  toolName: string;
  /** Pi's `durationMs` of the tool's `execute()`. */
  durationMs: number;
  isError: boolean;
  /** The result's text parts, joined. */
  text: string;
}

/** Polls `condition` every 20 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  what: string,
  timeoutMs = DEADLINE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function resultText(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((part) => part.text ?? "").join("\n");
}

export class PiRpcSession {
  readonly executions: ToolExecution[] = [];
  /** Called as each tool execution's end event arrives (before the agent run goes on). */
  onExecution: (execution: ToolExecution) => void = () => {};
  private stderr = "";
  private ends = 0;
  private answered = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly label: string,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.stderr.on("data", (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
    });
    void this.read();
  }

  get pid(): number {
    return this.child.pid!;
  }

  private async read(): Promise<void> {
    for await (const message of rpcMessages(this.child.stdout)) this.handle(message);
  }

  private handle(message: RpcMessage): void {
    if (message.id === "ready" && message.type === "response") this.answered = true;
    if (message.type === "agent_end") this.ends++;
    if (message.type === "tool_execution_end") {
      const execution = {
        toolName: String(message.toolName),
        durationMs: Number(message.durationMs),
        isError: message.isError === true,
        text: resultText(message.result),
      };
      this.executions.push(execution);
      this.onExecution(execution);
    }
    if (
      message.type === "extension_ui_request" &&
      ["select", "input", "confirm"].includes(message.method ?? "")
    ) {
      this.send({ type: "extension_ui_response", id: message.id, cancelled: true });
    }
  }

  private send(command: unknown): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Waits while `condition` does not hold, failing early (with Pi's stderr) when Pi exits. */
  async until(condition: () => boolean, what: string): Promise<void> {
    await waitFor(() => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`${this.label}: Pi exited while waiting for ${what}:\n${this.stderr}`);
      }
      return condition();
    }, `${this.label}: ${what}`);
  }

  /** Resolves once Pi answered `get_state` (its extensions are loaded). */
  async ready(): Promise<void> {
    this.send({ id: "ready", type: "get_state" });
    await this.until(() => this.answered, "its answer to get_state");
  }

  /** Sends `message` as the prompt and waits for the agent run to end. */
  async prompt(message: string): Promise<void> {
    const before = this.ends;
    this.send({ type: "prompt", message });
    await this.until(() => this.ends > before, "the end of the agent run");
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
    await this.exited;
  }
}
