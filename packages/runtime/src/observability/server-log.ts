/**
 * The adapter's log file in Pi's agent directory (`mcp-adapter.log`): what
 * servers send with `notifications/message`, one line each as
 * `<time> [<server>] <level> <logger>: <message>`, and — only with
 * `PI_MCP_ADAPTER_DEBUG=1` or `MCP_UI_DEBUG=1` — the adapter's own debug
 * lines under `[pi-mcp-adapter]`. Several Pi processes may share the file, so
 * each line is one synchronous append; past `SERVER_LOG_MAX_BYTES` the file
 * moves to `mcp-adapter.log.1`. Terminal control sequences are stripped and
 * values that look like credentials (bearer tokens, `token=…`, `"apiKey": …`)
 * are replaced by `[redacted]`. A write that fails is dropped: logging never
 * breaks a call.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

/** The log file's name in the agent directory. */
export const SERVER_LOG_FILE_NAME = "mcp-adapter.log";
/** Size past which the log moves to `<file>.1` (about 5 MB, as Pi's own `mcp.log`). */
export const SERVER_LOG_MAX_BYTES = 5 * 1024 * 1024;
/** Longest message kept per line; the rest is cut with a note. */
const MAX_MESSAGE_CHARS = 8 * 1024;

/** Whether the adapter's own debug log is on (`PI_MCP_ADAPTER_DEBUG=1` or `MCP_UI_DEBUG=1`). */
export function debugLogRequested(env: Record<string, string | undefined> = process.env): boolean {
  return [env.PI_MCP_ADAPTER_DEBUG, env.MCP_UI_DEBUG].some((v) => v !== undefined && v !== "" && v !== "0");
}

export interface ServerLogOptions {
  /** Also write the adapter's own debug lines (default: `debugLogRequested()`). */
  debug?: boolean;
  maxBytes?: number;
  now?: () => Date;
}

export class ServerLog {
  /** Whether `debug()` writes anything. */
  readonly debugEnabled: boolean;
  private size: number | undefined;
  private readonly maxBytes: number;
  private readonly now: () => Date;

  constructor(
    readonly file: string,
    options: ServerLogOptions = {},
  ) {
    this.debugEnabled = options.debug ?? debugLogRequested();
    this.maxBytes = options.maxBytes ?? SERVER_LOG_MAX_BYTES;
    this.now = options.now ?? (() => new Date());
  }

  /** One `notifications/message` of `server`. */
  server(server: string, level: string, logger: string | undefined, data: unknown): void {
    this.append(server, level, logger, data);
  }

  /** One line of the adapter's own debug log (dropped unless debugging was asked for). */
  debug(message: string): void {
    if (this.debugEnabled) this.append("pi-mcp-adapter", "debug", undefined, message);
  }

  private append(source: string, level: string, logger: string | undefined, data: unknown): void {
    const message = redactSecrets(stripControlSequences(messageText(data)));
    const cut =
      message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)} … (cut)` : message;
    const head = `${this.now().toISOString()} [${oneLine(source)}] ${oneLine(level)}${logger ? ` ${oneLine(logger)}` : ""}:`;
    const line = `${head} ${cut.replace(/\r?\n/g, "\n    ")}\n`;
    try {
      this.rotateFor(Buffer.byteLength(line));
      appendFileSync(this.file, line, { mode: 0o600 });
      this.size = (this.size ?? 0) + Buffer.byteLength(line);
    } catch {
      this.size = undefined;
    }
  }

  private rotateFor(bytes: number): void {
    if (this.size === undefined) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      try {
        this.size = statSync(this.file).size;
      } catch {
        this.size = 0;
      }
    }
    if (this.size > 0 && this.size + bytes > this.maxBytes) {
      renameSync(this.file, `${this.file}.1`);
      this.size = 0;
    }
  }
}

/** Replaces values that look like credentials with `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(/\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]{6,}/gi, "$1$2[redacted]")
    .replace(
      /((?:access[_-]?token|refresh[_-]?token|id[_-]?token|token|secret|client[_-]?secret|password|passwd|api[_-]?key|authorization|cookie)["']?\s*[:=]\s*["']?)[^\s"',;}&]+/gi,
      "$1[redacted]",
    );
}

function messageText(data: unknown): string {
  if (typeof data === "string") return data;
  try {
    return JSON.stringify(data) ?? String(data);
  } catch {
    return String(data);
  }
}

function oneLine(text: string): string {
  return stripControlSequences(text).replace(/\s+/g, " ");
}
