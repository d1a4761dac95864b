/**
 * Call stats (`settings.captureStats`): per server and tool, calls, errors,
 * timeouts, approval refusals, p50/p95 latency, bytes in (arguments) and out
 * (results) and sampling tokens. A call observer fills it; it lives in
 * memory for the session unless `captureStats.file` names a JSON file, which
 * is read at start (stats then add up across sessions) and written shortly
 * after each call and at shutdown.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CallRecord } from "./call-observers.js";

/** Latencies kept per tool for the percentiles (the most recent ones). */
export const STATS_LATENCY_SAMPLES = 500;
/** Delay between a call and the stats file write, so bursts write once. */
export const STATS_WRITE_DELAY_MS = 750;

export interface ToolStats {
  server: string;
  /** The tool or prompt name; resource reads of a server share the name `(resources)` (URIs may carry secrets). */
  tool: string;
  calls: number;
  /** Calls that failed or whose result was an error. */
  errors: number;
  timeouts: number;
  /** Calls approval refused (the server was never asked). */
  refused: number;
  bytesIn: number;
  bytesOut: number;
  samplingInputTokens: number;
  samplingOutputTokens: number;
  /** Recent latencies in ms, oldest first (at most `STATS_LATENCY_SAMPLES`). */
  latenciesMs: number[];
}

export interface ToolStatsSummary extends Omit<ToolStats, "latenciesMs"> {
  p50Ms?: number;
  p95Ms?: number;
}

export interface CallStatsOptions {
  /** A JSON file to read at start and keep written; without it stats live in memory only. */
  file?: string;
  /** Called when the file cannot be read or written; default silent. */
  onError?: (message: string) => void;
}

const RESOURCES = "(resources)";
/** Error codes of a request that ran out of time (the transport's, and a generic one). */
const TIMEOUT_CODES = new Set(["request_timeout", "timeout"]);

export class CallStats {
  private readonly entries = new Map<string, ToolStats>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CallStatsOptions = {}) {
    if (options.file) this.load(options.file);
  }

  /** Where stats are kept on disk, if anywhere. */
  get file(): string | undefined {
    return this.options.file;
  }

  /** The call observer: `runtime.observe(stats.observer)`. */
  readonly observer = (record: Readonly<CallRecord>): void => {
    const name = record.kind === "tool" || record.kind === "prompt" ? record.name : RESOURCES;
    const entry = this.entry(record.server, name);
    entry.calls++;
    if (record.outcome === "error" || record.outcome === "failed") entry.errors++;
    if (record.outcome === "refused") entry.refused++;
    if (record.errorCode !== undefined && TIMEOUT_CODES.has(record.errorCode)) entry.timeouts++;
    entry.bytesIn += record.argsBytes;
    entry.bytesOut += record.resultBytes ?? 0;
    entry.latenciesMs.push(Math.round(record.durationMs * 10) / 10);
    if (entry.latenciesMs.length > STATS_LATENCY_SAMPLES) entry.latenciesMs.shift();
    this.scheduleWrite();
  };

  /**
   * Tokens a sampling request of `server` used (on behalf of `tool` when
   * known): the hook the sampling handler reports to.
   */
  recordSampling(server: string, tokens: { input?: number; output?: number }, tool = "(sampling)"): void {
    const entry = this.entry(server, tool);
    entry.samplingInputTokens += tokens.input ?? 0;
    entry.samplingOutputTokens += tokens.output ?? 0;
    this.scheduleWrite();
  }

  /** Every server/tool with its percentiles, sorted by server then tool. */
  summary(): ToolStatsSummary[] {
    return [...this.entries.values()]
      .sort((a, b) => a.server.localeCompare(b.server) || a.tool.localeCompare(b.tool))
      .map(({ latenciesMs, ...rest }) => {
        const sorted = [...latenciesMs].sort((a, b) => a - b);
        return {
          ...rest,
          ...(sorted.length ? { p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) } : {}),
        };
      });
  }

  /** Writes the file now (if there is one); call at shutdown. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const file = this.options.file;
    if (!file) return;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      const data = { version: 1, tools: [...this.entries.values()] };
      writeFileSync(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    } catch (error) {
      this.options.onError?.(`could not write stats file ${file}: ${(error as Error).message}`);
    }
  }

  private entry(server: string, tool: string): ToolStats {
    const key = `${server}\u0000${tool}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        server,
        tool,
        calls: 0,
        errors: 0,
        timeouts: 0,
        refused: 0,
        bytesIn: 0,
        bytesOut: 0,
        samplingInputTokens: 0,
        samplingOutputTokens: 0,
        latenciesMs: [],
      };
      this.entries.set(key, entry);
    }
    return entry;
  }

  private scheduleWrite(): void {
    if (!this.options.file || this.timer) return;
    this.timer = setTimeout(() => this.flush(), STATS_WRITE_DELAY_MS);
    this.timer.unref();
  }

  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return; // no file yet: this session starts it
    }
    try {
      const data = JSON.parse(text) as { tools?: unknown };
      if (!Array.isArray(data.tools)) throw new Error("no tools list");
      for (const raw of data.tools as Partial<ToolStats>[]) {
        if (typeof raw.server !== "string" || typeof raw.tool !== "string") continue;
        const entry = this.entry(raw.server, raw.tool);
        for (const key of NUMBER_KEYS) entry[key] = typeof raw[key] === "number" ? raw[key] : 0;
        entry.latenciesMs = Array.isArray(raw.latenciesMs)
          ? raw.latenciesMs.filter((n): n is number => typeof n === "number").slice(-STATS_LATENCY_SAMPLES)
          : [];
      }
    } catch (error) {
      this.options.onError?.(`stats file ${file} is not valid, starting afresh: ${(error as Error).message}`);
    }
  }
}

const NUMBER_KEYS = [
  "calls",
  "errors",
  "timeouts",
  "refused",
  "bytesIn",
  "bytesOut",
  "samplingInputTokens",
  "samplingOutputTokens",
] as const;

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** A table for people: one row per server/tool. */
export function formatStats(rows: ToolStatsSummary[], where?: string): string {
  const title = `MCP call stats${where ? ` (${where})` : " (this session)"}`;
  if (rows.length === 0) return `${title}\nNo MCP calls yet.`;
  const header = ["server/tool", "calls", "errors", "timeouts", "p50", "p95", "in", "out", "sampling tokens"];
  const body = rows.map((r) => [
    `${r.server}/${r.tool}`,
    String(r.calls),
    String(r.errors) + (r.refused ? ` +${r.refused} refused` : ""),
    String(r.timeouts),
    r.p50Ms === undefined ? "-" : `${r.p50Ms} ms`,
    r.p95Ms === undefined ? "-" : `${r.p95Ms} ms`,
    formatBytes(r.bytesIn),
    formatBytes(r.bytesOut),
    r.samplingInputTokens || r.samplingOutputTokens
      ? `${r.samplingInputTokens} in / ${r.samplingOutputTokens} out`
      : "-",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return [title, line(header), ...body.map(line)].join("\n");
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
