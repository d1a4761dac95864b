/**
 * The session trace (`settings.trace`): one JSON line per event — server
 * connection changes, tool calls, resource reads, prompt gets, approval
 * refusals, errors, and (reported by their handlers) list, sampling,
 * elicitation and auth steps — with time, server, tool name, duration,
 * sizes and outcome.
 *
 * What it never writes: arguments, results, prompts, auth data, headers,
 * URLs, error messages (they quote URLs and server output). Events are built
 * from a closed set of fields below, so nothing free-form reaches the file;
 * resource reads name no URI. The file is created with mode 0600.
 *
 * Bounded: after `maxEvents` events, or when the next line would pass
 * `maxBytes`, one final `trace_stopped` line is written and nothing more.
 */
import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import type { CallRecord } from "./call-observers.js";

export const DEFAULT_TRACE_DIR = path.join(".pi", "mcp-traces");
export const DEFAULT_TRACE_MAX_BYTES = 262_144;
export const DEFAULT_TRACE_MAX_EVENTS = 10_000;

export type TraceEventType =
  | "session"
  | "connect"
  | "list"
  | "call"
  | "read"
  | "prompt"
  | "approval"
  | "sampling"
  | "elicitation"
  | "auth"
  | "error";

/** The only fields an event may carry: names, numbers and fixed words, never content. */
export interface TraceEvent {
  event: TraceEventType;
  server?: string;
  /** A tool or prompt name (never a resource URI). */
  tool?: string;
  /** `tool`, `resource`, `resource-template`, `prompt`. */
  kind?: string;
  /** Who asked: `proxy`, `direct`, `script`, … */
  origin?: string;
  /** Connection state, approval decision, auth step, … (a fixed word). */
  state?: string;
  outcome?: string;
  /** An error code (never its message). */
  code?: string;
  durationMs?: number;
  bytesIn?: number;
  bytesOut?: number;
  inputTokens?: number;
  outputTokens?: number;
}

export interface TraceOptions {
  /** The project directory; the default file goes under `<cwd>/.pi/mcp-traces/`. */
  cwd: string;
  /** A trace file (relative to `cwd`) instead of a new one per session. */
  file?: string;
  maxBytes?: number;
  maxEvents?: number;
  /** Called once if the file cannot be opened or written; the trace then stays off. */
  onError?: (message: string) => void;
}

const WORD = /^[\w./-]{1,128}$/;
const STOP_RESERVE = 80;

export class SessionTrace {
  readonly file: string;
  private fd: number | undefined;
  private events = 0;
  private bytes = 0;
  private stopped = false;
  private readonly maxBytes: number;
  private readonly maxEvents: number;

  constructor(private readonly options: TraceOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_TRACE_MAX_BYTES;
    this.maxEvents = options.maxEvents ?? DEFAULT_TRACE_MAX_EVENTS;
    this.file = path.resolve(options.cwd, options.file ?? path.join(DEFAULT_TRACE_DIR, sessionFileName()));
    try {
      // A new trace directory is private too (an existing one keeps its mode).
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      this.fd = openSync(this.file, "w", 0o600);
      // An existing file keeps its mode on open: make it private too.
      fchmodSync(this.fd, 0o600);
    } catch (error) {
      this.stopped = true;
      options.onError?.(`trace is off: cannot open ${this.file}: ${(error as NodeJS.ErrnoException).code}`);
    }
    this.record({ event: "session", state: "start" });
  }

  /** Events written so far (the final marker not counted). */
  get count(): number {
    return this.events;
  }

  /** The call observer: `runtime.observe(trace.observer)`. */
  readonly observer = (call: Readonly<CallRecord>): void => {
    const event: TraceEventType = call.kind === "tool" ? "call" : call.kind === "prompt" ? "prompt" : "read";
    if (call.outcome === "refused") {
      this.record({
        event: "approval",
        server: call.server,
        ...toolOf(call),
        state: "deny",
        code: call.errorCode,
      });
    }
    this.record({
      event,
      server: call.server,
      ...toolOf(call),
      kind: call.kind,
      origin: call.origin,
      outcome: call.outcome,
      code: call.errorCode,
      durationMs: Math.round(call.durationMs),
      bytesIn: call.argsBytes,
      bytesOut: call.resultBytes,
    });
  };

  /** Writes one event (dropping any field that is not a plain name or number). */
  record(event: TraceEvent): void {
    if (this.stopped || this.fd === undefined) return;
    const line = `${JSON.stringify({ t: new Date().toISOString(), ...clean(event) })}\n`;
    const size = Buffer.byteLength(line);
    if (this.events >= this.maxEvents || this.bytes + size + STOP_RESERVE > this.maxBytes) {
      this.stop(this.events >= this.maxEvents ? "maxEvents" : "maxBytes");
      return;
    }
    if (!this.write(line)) return;
    this.bytes += size;
    this.events++;
  }

  /** Ends the trace with a `session end` event; later events are dropped. */
  close(): void {
    if (this.fd === undefined) return;
    this.record({ event: "session", state: "end" });
    const fd = this.fd;
    this.fd = undefined;
    this.stopped = true;
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }

  private stop(reason: "maxEvents" | "maxBytes"): void {
    this.stopped = true;
    this.write(
      `${JSON.stringify({ t: new Date().toISOString(), event: "trace_stopped", reason, events: this.events })}\n`,
    );
  }

  private write(line: string): boolean {
    try {
      writeSync(this.fd as number, line);
      return true;
    } catch (error) {
      this.stopped = true;
      this.options.onError?.(
        `trace stopped: cannot write ${this.file}: ${(error as NodeJS.ErrnoException).code}`,
      );
      return false;
    }
  }
}

/** Tool and prompt names are kept; resource names are URIs, which may carry credentials. */
function toolOf(call: Readonly<CallRecord>): { tool?: string } {
  return call.kind === "tool" || call.kind === "prompt" ? { tool: call.name } : {};
}

const STRING_FIELDS = ["server", "tool", "kind", "origin", "state", "outcome", "code"] as const;
const NUMBER_FIELDS = ["durationMs", "bytesIn", "bytesOut", "inputTokens", "outputTokens"] as const;

/** Only the known fields, strings only when they look like names (a URL or a sentence never passes). */
function clean(event: TraceEvent): Record<string, string | number> {
  const out: Record<string, string | number> = { event: event.event };
  for (const key of STRING_FIELDS) {
    const value = event[key];
    if (typeof value === "string" && WORD.test(value) && !value.includes("//")) out[key] = value;
  }
  for (const key of NUMBER_FIELDS) {
    const value = event[key];
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  return out;
}

function sessionFileName(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  return `${stamp}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.jsonl`;
}
