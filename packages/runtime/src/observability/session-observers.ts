/**
 * The trace and stats a session's settings ask for, built before the
 * runtime so the runtime can attach them to its call pipeline.
 */
import path from "node:path";
import type { Settings } from "@pi-mcp-adapter/config";
import type { StatusListener } from "@pi-mcp-adapter/transport";
import type { CallObserver } from "./call-observers.js";
import { CallStats } from "./stats-observer.js";
import { SessionTrace } from "./trace-observer.js";

/** Where `captureStats: true` keeps call stats, relative to the project directory. */
export const DEFAULT_STATS_FILE = path.join(".pi", "mcp-tool-stats.json");

export function sessionObservers(
  settings: Pick<Settings, "trace" | "captureStats">,
  cwd: string,
  warn: (message: string) => void,
): { trace?: SessionTrace; stats?: CallStats } {
  const trace =
    settings.trace?.enabled === true
      ? new SessionTrace({
          cwd,
          file: settings.trace.file,
          maxBytes: settings.trace.maxBytes,
          maxEvents: settings.trace.maxEvents,
          onError: warn,
        })
      : undefined;
  const capture = settings.captureStats;
  // `true` (or an object without `file`) keeps the stats in the project's default file, for the CLI.
  const file = typeof capture === "object" && capture.file ? capture.file : DEFAULT_STATS_FILE;
  const stats =
    capture === true || typeof capture === "object"
      ? new CallStats({ file: path.resolve(cwd, file), onError: warn })
      : undefined;
  return { ...(trace ? { trace } : {}), ...(stats ? { stats } : {}) };
}

/**
 * Attaches a session's trace and stats to the runtime's parts: both observe
 * every call; the trace also records connection changes — by state only, as
 * the error text may quote a URL or the server's output.
 */
export function attachObservers(
  { trace, stats }: { trace?: SessionTrace; stats?: CallStats },
  calls: { observe(observer: CallObserver): () => void },
  servers: { onStatus(listener: StatusListener): () => void },
): void {
  if (trace) {
    calls.observe(trace.observer);
    servers.onStatus((status) =>
      trace.record({ event: "connect", server: status.name, state: status.state }),
    );
  }
  if (stats) calls.observe(stats.observer);
}
