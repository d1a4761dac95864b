/**
 * Runs one mcpScript: a fresh worker per script (so a runaway script is
 * ended by terminating its thread, and nothing survives into the next one),
 * the host's answers to its `tools` requests, a deadline and a transfer
 * budget. Never throws: every way a script ends is a `ScriptOutcome`.
 */
import { Worker } from "node:worker_threads";
import type { ScriptHost } from "./script-host.js";
import { DEFAULT_SCRIPT_TIMEOUT_MS, SCRIPT_TRANSFER_BUDGET_BYTES } from "./script-limits.js";
import { WORKER_SOURCE } from "./worker-source.js";

export interface RunScriptOptions {
  /** Default `DEFAULT_SCRIPT_TIMEOUT_MS`; the worker is terminated when it passes. */
  timeoutMs?: number;
  /** Default `SCRIPT_TRANSFER_BUDGET_BYTES`. */
  transferBudgetBytes?: number;
  /** Ends the script like the deadline does (e.g. the user cancelled the turn). */
  signal?: AbortSignal;
}

export type ScriptErrorCode =
  /** The script threw or rejected (syntax errors included). */
  | "script_error"
  /** The deadline passed; the worker was terminated. */
  | "timeout"
  /** More than the transfer budget moved between worker and host. */
  | "transfer_budget"
  | "aborted"
  /** The worker itself failed (e.g. out of memory). */
  | "worker_error";

export interface ScriptLogLine {
  level: "log" | "info" | "warn" | "error" | "debug";
  text: string;
}

export interface ScriptOutcome {
  ok: boolean;
  /** The values passed to `emit`, in order (also when the script failed later). */
  emitted: unknown[];
  /** What the script wrote to `console`. */
  logs: ScriptLogLine[];
  /** The script's return value (JSON), when it finished. */
  value?: unknown;
  error?: { code: ScriptErrorCode; message: string };
  /** Tool calls the script made. */
  calls: number;
  durationMs: number;
  /** Bytes moved between worker and host. */
  transferredBytes: number;
}

export async function runScript(
  code: string,
  host: ScriptHost,
  options: RunScriptOptions = {},
): Promise<ScriptOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
  const budget = options.transferBudgetBytes ?? SCRIPT_TRANSFER_BUDGET_BYTES;
  const started = performance.now();
  const outcome: ScriptOutcome = {
    ok: false,
    emitted: [],
    logs: [],
    calls: 0,
    durationMs: 0,
    transferredBytes: 0,
  };
  const calls = new AbortController();
  let transferred = Buffer.byteLength(code);
  if (transferred > budget) {
    return {
      ...outcome,
      error: { code: "transfer_budget", message: `mcpScript code is larger than ${formatMiB(budget)}` },
      transferredBytes: transferred,
    };
  }

  return new Promise<ScriptOutcome>((resolve) => {
    let settled = false;
    const end = (error?: ScriptOutcome["error"], value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      options.signal?.removeEventListener("abort", onAbort);
      calls.abort();
      void worker.terminate();
      outcome.ok = error === undefined;
      if (error) outcome.error = error;
      else outcome.value = value;
      outcome.durationMs = Math.round(performance.now() - started);
      outcome.transferredBytes = transferred;
      resolve(outcome);
    };
    const count = (bytes: number): boolean => {
      transferred += bytes;
      if (transferred <= budget) return true;
      end({
        code: "transfer_budget",
        message: `mcpScript moved more than ${formatMiB(budget)} between the script and its tools; return or emit less data`,
      });
      return false;
    };

    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { code },
      // The script's thread sees no environment (secrets) and cannot write to the session's terminal.
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const deadline = setTimeout(
      () => end({ code: "timeout", message: `mcpScript timed out after ${timeoutMs} ms and was stopped` }),
      timeoutMs,
    );
    const onAbort = () => end({ code: "aborted", message: "mcpScript was cancelled" });
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const reply = (message: object) => {
      if (settled) return;
      const text = JSON.stringify(message);
      if (!count(Buffer.byteLength(text))) return;
      worker.postMessage(text);
    };

    const answer = async (id: number, op: string, payload: Record<string, unknown>) => {
      try {
        if (op === "call") {
          outcome.calls++;
          const path = String(payload.path ?? "");
          const args = isRecord(payload.args) ? payload.args : {};
          const server = typeof payload.server === "string" ? payload.server : undefined;
          if (payload.args !== undefined && !isRecord(payload.args)) {
            reply({
              id,
              value: {
                ok: false,
                error: { code: "invalid_args", message: "tool arguments must be an object" },
              },
            });
            return;
          }
          reply({ id, value: await host.call(path, args, { server, signal: calls.signal }) });
        } else if (op === "search") {
          if (!isRecord(payload) || typeof payload.query !== "string") {
            throw new Error("tools.search needs { query: string, server?, limit?, offset? }");
          }
          reply({ id, value: await host.search(payload as never) });
        } else if (op === "describe") {
          if (!isRecord(payload) || typeof payload.path !== "string") {
            throw new Error("tools.describe needs { path: string, server? }");
          }
          reply({ id, value: await host.describe(payload as never) });
        } else {
          throw new Error(`unknown request ${op}`);
        }
      } catch (error) {
        reply({ id, error: error instanceof Error ? error.message : String(error) });
      }
    };

    worker.on("message", (text: string) => {
      if (settled || !count(Buffer.byteLength(text))) return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return; // the worker only sends JSON; anything else is dropped
      }
      switch (message.type) {
        case "request":
          void answer(
            message.id as number,
            String(message.op),
            (message.payload ?? {}) as Record<string, unknown>,
          );
          break;
        case "emit":
          outcome.emitted.push(message.value);
          break;
        case "console":
          outcome.logs.push({ level: message.level as ScriptLogLine["level"], text: String(message.text) });
          break;
        case "done":
          end(undefined, message.value);
          break;
        case "failed":
          end({
            code: "script_error",
            message: scriptErrorMessage(String(message.name), String(message.message)),
          });
          break;
      }
    });
    worker.on("error", (error) =>
      end({ code: "worker_error", message: `mcpScript worker failed: ${error.message}` }),
    );
    worker.on("exit", () =>
      end({ code: "worker_error", message: "mcpScript worker exited before the script finished" }),
    );
  });
}

/** Names what a script cannot use when it reaches for it. */
function scriptErrorMessage(name: string, message: string): string {
  const base = `${name}: ${message}`;
  const missing = /^(process|require|module|exports|Buffer|fetch|__dirname|__filename) is not defined$/.exec(
    message,
  );
  if (name === "ReferenceError" && missing) {
    return `${base}. mcpScript has no ${missing[1]}: scripts get only tools, emit, console and setTimeout (no modules, process, file system or network)`;
  }
  if (/import statement|dynamic import|ERR_VM_DYNAMIC_IMPORT/i.test(message) || /import\(\)/.test(message)) {
    return `${base}. mcpScript cannot import modules: use tools.search / tools.call`;
  }
  if (/Code generation from strings disallowed/.test(message)) {
    return `${base}. mcpScript does not allow eval or new Function`;
  }
  return base;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}
