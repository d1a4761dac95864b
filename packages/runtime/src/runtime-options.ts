/**
 * What a runtime is built from, in explicit groups: the server set (servers,
 * a ready `connect`, lifecycle tuning, config problems and reload), the
 * catalog's cache, the call settings, the host, and the session's
 * collaborators (OAuth, roots, trace, stats, MCP Apps) it shuts down.
 */

import type { CallSettings } from "./calls/call-pipeline.js";
import type { RuntimeUiOptions } from "./calls/ui-apps.js";
import type { AutoDirect } from "./catalog/auto-direct-tools.js";
import type { DirectToolSettings } from "./catalog/direct-tools.js";
import type { KeepAliveRelistTerms } from "./catalog/keep-alive-relist.js";
import type { StragglerTerms } from "./catalog/straggler-wait.js";
import type { ToolCatalogOptions } from "./catalog/tool-catalog.js";
import type { SamplingUsage } from "./client-features/sampling-usage.js";
import type { SessionRoots } from "./client-features/session-roots.js";
import type { Host } from "./host.js";
import type { OAuthWiring } from "./oauth/oauth-wiring.js";
import type { OutputShapes } from "./observability/output-shapes.js";
import type { ServerLog } from "./observability/server-log.js";
import type { CallStats } from "./observability/stats-observer.js";
import type { TaskJournal } from "./observability/task-records.js";
import type { SessionTrace } from "./observability/trace-observer.js";
import type { LoadedServers, ServerSetOptions } from "./servers/server-set.js";

export interface AdapterRuntimeOptions extends Omit<ServerSetOptions, "reloadConfig"> {
  /** The direct-tool settings (`directTools`, `freezeDirectTools`, …). */
  direct?: DirectToolSettings;
  /** Reads the servers again (from config files), with the direct-tool settings; without it `reload()` refuses. */
  reloadConfig?: () => Promise<LoadedServers & { direct?: DirectToolSettings }>;
  /**
   * The metadata disk cache, default tool prefix, the `directTools: "auto"` decision made at start-up,
   * and how often keep-alive servers are listed again (`keepAliveRelist`, default every 5 minutes).
   */
  catalog?: ToolCatalogOptions & {
    autoDirect?: AutoDirect;
    stragglerWait?: StragglerTerms;
    keepAliveRelist?: KeepAliveRelistTerms;
  };
  /** Approval and output-guard settings of every call. */
  calls?: CallSettings;
  /** Dialogs, notices, status sink and broker bus; default a headless host (no UI). */
  host?: Host;
  /** OAuth logins and credentials of the HTTP servers; shut down with the runtime. */
  oauth?: OAuthWiring;
  /** The session's roots (answered to `roots/list`); a change is told to connected servers. */
  roots?: SessionRoots;
  /** Where the client handlers count sampling token usage; default a fresh counter. */
  samplingUsage?: SamplingUsage;
  /** The session trace (`settings.trace`): observes calls and connection changes; closed at shutdown. */
  trace?: SessionTrace;
  /** Call stats (`settings.captureStats`): observes calls; written at shutdown. */
  stats?: CallStats;
  /** The log file servers' `notifications/message` go to (and the adapter's debug lines); none when left out. */
  serverLog?: ServerLog;
  /** Output shapes mcpScript calls observed (describe hints); default in memory only. */
  outputShapes?: OutputShapes;
  /** MCP Apps: the viewer (`browser` / `none`), tool consent, how windows open. */
  ui?: RuntimeUiOptions;
  /** The agent dir's journal of running MCP tasks (task-records.ts); default none (records go to the host only). */
  taskJournal?: TaskJournal;
}
