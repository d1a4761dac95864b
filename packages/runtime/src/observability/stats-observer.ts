/**
 * Call stats (`settings.captureStats`): per server and tool, calls, errors,
 * timeouts, approval refusals, p50/p95 latency, bytes in (arguments) and out
 * (results) and sampling tokens. A call observer fills it; it lives in
 * memory for the session unless `captureStats.file` names a JSON file. Then
 * it starts from that file, and shortly after calls (and at shutdown) adds
 * what this session counted since its last write to what the file holds now,
 * under a lock — so sessions sharing the file add up instead of overwriting
 * each other — and writes it atomically, mode 0600.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
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
  /** A JSON file to start from and keep written; without it stats live in memory only. */
  file?: string;
  /** Called when the file cannot be read or written; default silent. */
  onError?: (message: string) => void;
}

const RESOURCES = "(resources)";
/** Error codes of a request that ran out of time (the transport's, and a generic one). */
const TIMEOUT_CODES = new Set(["request_timeout", "timeout"]);
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

type StatsTable = Map<string, ToolStats>;

export class CallStats {
  /** What `summary()` shows: the file as last read, plus this session. */
  private entries: StatsTable = new Map();
  /** What this session counted since its last write to the file. */
  private unsaved: StatsTable = new Map();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CallStatsOptions = {}) {
    if (options.file) {
      let text: string | undefined;
      try {
        text = readFileSync(options.file, "utf8");
      } catch {
        // no file yet: this session starts it
      }
      if (text !== undefined) this.entries = this.parse(text);
    }
  }

  /** Where stats are kept on disk, if anywhere. */
  get file(): string | undefined {
    return this.options.file;
  }

  /** The call observer: `runtime.observe(stats.observer)`. */
  readonly observer = (record: Readonly<CallRecord>): void => {
    const name = record.kind === "tool" || record.kind === "prompt" ? record.name : RESOURCES;
    const latency = Math.round(record.durationMs * 10) / 10;
    for (const table of this.tables()) {
      const entry = entryOf(table, record.server, name);
      entry.calls++;
      if (record.outcome === "error" || record.outcome === "failed") entry.errors++;
      if (record.outcome === "refused") entry.refused++;
      if (record.errorCode !== undefined && TIMEOUT_CODES.has(record.errorCode)) entry.timeouts++;
      entry.bytesIn += record.argsBytes;
      entry.bytesOut += record.resultBytes ?? 0;
      pushLatencies(entry, [latency]);
    }
    this.scheduleWrite();
  };

  /**
   * Tokens a sampling request of `server` used (on behalf of `tool` when
   * known); `createRuntime` feeds it from `SamplingUsage`.
   */
  recordSampling(server: string, tokens: { input?: number; output?: number }, tool = "(sampling)"): void {
    for (const table of this.tables()) {
      const entry = entryOf(table, server, tool);
      entry.samplingInputTokens += tokens.input ?? 0;
      entry.samplingOutputTokens += tokens.output ?? 0;
    }
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

  /** Adds this session's unsaved counts to the file (if there is one); call at shutdown. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const file = this.options.file;
    if (!file || this.unsaved.size === 0) return;
    const unsaved = this.unsaved;
    this.unsaved = new Map();
    try {
      await withFileLock(file, async () => {
        let onDisk: StatsTable = new Map();
        try {
          onDisk = this.parse(await readFile(file, "utf8"));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
        for (const delta of unsaved.values()) {
          addInto(onDisk, delta);
        }
        const data = { version: 1, tools: [...onDisk.values()] };
        await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
        // Counts other sessions added since this one started show from now on, with this session's.
        this.entries = onDisk;
        for (const delta of this.unsaved.values()) {
          addInto(this.entries, delta);
        }
      });
    } catch (error) {
      // Kept for the next write.
      for (const delta of unsaved.values()) {
        addInto(this.unsaved, delta);
      }
      this.options.onError?.(`could not write stats file ${file}: ${(error as Error).message}`);
    }
  }

  /** The tables a new count goes to: the shown totals, and the unsaved deltas when there is a file. */
  private tables(): StatsTable[] {
    return this.options.file ? [this.entries, this.unsaved] : [this.entries];
  }

  private scheduleWrite(): void {
    if (!this.options.file || this.timer) return;
    this.timer = setTimeout(() => void this.flush(), STATS_WRITE_DELAY_MS);
    this.timer.unref();
  }

  /** The stats a file holds; a file that is not stats is reported and counts as empty. */
  private parse(text: string): StatsTable {
    const table: StatsTable = new Map();
    try {
      const data = JSON.parse(text) as { tools?: unknown };
      if (!Array.isArray(data.tools)) throw new Error("no tools list");
      for (const raw of data.tools as Partial<ToolStats>[]) {
        if (typeof raw.server !== "string" || typeof raw.tool !== "string") continue;
        const entry = entryOf(table, raw.server, raw.tool);
        for (const key of NUMBER_KEYS) entry[key] = typeof raw[key] === "number" ? raw[key] : 0;
        pushLatencies(
          entry,
          Array.isArray(raw.latenciesMs)
            ? raw.latenciesMs.filter((n): n is number => typeof n === "number")
            : [],
        );
      }
    } catch (error) {
      this.options.onError?.(
        `stats file ${this.options.file} is not valid, starting afresh: ${(error as Error).message}`,
      );
    }
    return table;
  }
}

function entryOf(table: StatsTable, server: string, tool: string): ToolStats {
  const key = `${server}\u0000${tool}`;
  let entry = table.get(key);
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
    table.set(key, entry);
  }
  return entry;
}

/** Adds `delta`'s counts and latencies to the same server/tool in `table`. */
function addInto(table: StatsTable, delta: ToolStats): void {
  const entry = entryOf(table, delta.server, delta.tool);
  for (const key of NUMBER_KEYS) entry[key] += delta[key];
  pushLatencies(entry, delta.latenciesMs);
}

function pushLatencies(entry: ToolStats, latencies: number[]): void {
  entry.latenciesMs.push(...latencies);
  if (entry.latenciesMs.length > STATS_LATENCY_SAMPLES) {
    entry.latenciesMs.splice(0, entry.latenciesMs.length - STATS_LATENCY_SAMPLES);
  }
}

/** Nearest-rank percentile of an ascending list. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}
