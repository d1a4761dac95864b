/**
 * The trace and stats a session's settings ask for, built before the
 * runtime so the runtime can attach them to its call pipeline.
 */
import path from "node:path";
import type { Settings } from "@pi-mcp-adapter/config";
import { CallStats } from "./stats-observer.js";
import { SessionTrace } from "./trace-observer.js";

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
  const stats =
    capture === true
      ? new CallStats({ onError: warn })
      : typeof capture === "object"
        ? new CallStats({ ...(capture.file ? { file: path.resolve(cwd, capture.file) } : {}), onError: warn })
        : undefined;
  return { ...(trace ? { trace } : {}), ...(stats ? { stats } : {}) };
}
