/**
 * The trace and stats a session's settings ask for, built before the
 * runtime so the runtime can attach them to its call pipeline.
 */
import path from "node:path";
import type { Settings } from "@pi-mcp-adapter/config";
import type { NotificationEventListener, StatusListener } from "@pi-mcp-adapter/transport";
import type { CallObserver } from "./call-observers.js";
import type { ServerLog } from "./server-log.js";
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
 * Attaches a session's trace, stats and log to the runtime's parts: trace and
 * stats observe every call; the trace also records connection changes — by
 * state only, as the error text may quote a URL or the server's output. The
 * log takes the servers' log messages, and (debugging) connection changes.
 */
export function attachObservers(
  { trace, stats, serverLog }: { trace?: SessionTrace; stats?: CallStats; serverLog?: ServerLog },
  calls: { observe(observer: CallObserver): () => void },
  servers: {
    onStatus(listener: StatusListener): () => void;
    onNotification(listener: NotificationEventListener): () => void;
  },
): void {
  if (serverLog) {
    servers.onNotification((server, n) => {
      if (n.kind === "log") serverLog.server(server, n.level, n.logger, n.data);
    });
    if (serverLog.debugEnabled) {
      servers.onStatus((s) => serverLog.debug(`${s.name}: ${s.state}${s.error ? ` (${s.error})` : ""}`));
    }
  }
  if (trace) {
    calls.observe(trace.observer);
    servers.onStatus((status) =>
      trace.record({ event: "connect", server: status.name, state: status.state }),
    );
  }
  if (stats) calls.observe(stats.observer);
}
