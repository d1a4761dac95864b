/**
 * Direct tools before Pi's first model request. The startup snapshot holds
 * each server's cached metadata, so a warm cache registers everything with
 * no server started. A server that wants direct tools but has no cached
 * metadata (first run, edited definition) is listed by the session's own
 * runtime when the session starts, and the first prompt waits for that
 * listing, so `-p` and `--mode json` runs see its tools in the first request
 * too, and the process listed is the one that answers the calls (started
 * once, with the session's dialogs). `deferWithMissingMetadata: true` skips
 * that wait: those servers' tools appear a turn later. `directTools: "auto"`
 * is decided from the snapshot alone (the session's runtime decides the same
 * from it): no server is started to find out how large the catalog is.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import {
  type DirectToolSettings,
  directSelection,
  planDirectTools,
  type StartupSnapshot,
  serversNeedingListing,
  snapshotAutoDirect,
} from "@pi-mcp-adapter/runtime/startup";
import type { DirectToolRegistrar } from "./direct-tools.js";

/** How long the first prompt waits for servers without cached metadata before going out without them. */
export const STARTUP_LISTING_TIMEOUT_MS = 30_000;

export interface StartupDirectTools {
  /** Servers to list in the session without holding up the first prompt (`deferWithMissingMetadata`). */
  deferred: string[];
  /** Servers to list in the session before its first prompt (no cached metadata). */
  listFirst: string[];
  /** Metadata per server as registered now: the snapshot's. */
  metadata: Map<string, readonly ToolMetadata[]>;
}

export function registerStartupDirectTools(
  snapshot: StartupSnapshot,
  settings: DirectToolSettings,
  registrar: DirectToolRegistrar,
  reserved: readonly string[],
): StartupDirectTools {
  const auto = snapshotAutoDirect(snapshot);
  // Only servers with direct tools need their cached metadata (built on first read), the rest never do.
  const inputs = snapshot.servers.map((s) => ({
    definition: s.server,
    metadata: directSelection(s.server, settings, auto) ? s.metadata : undefined,
  }));
  const missing = serversNeedingListing(inputs, settings);
  const defer = settings.deferWithMissingMetadata === true;
  registrar.sync(planDirectTools(inputs, settings, reserved, auto));
  const metadata = new Map<string, readonly ToolMetadata[]>();
  for (const input of inputs) if (input.metadata) metadata.set(input.definition.name, input.metadata);
  return { deferred: defer ? missing : [], listFirst: defer ? [] : missing, metadata };
}

/**
 * Lists `names` in the session's runtime (its listing events register their
 * direct tools); resolves when all are listed or failed, or after
 * `STARTUP_LISTING_TIMEOUT_MS` of listing. Undefined when there is nothing to list.
 */
export function listBeforeFirstPrompt(
  runtime: Promise<AdapterRuntime>,
  names: readonly string[],
): Promise<void> | undefined {
  if (names.length === 0) return undefined;
  return runtime.then(
    async (r) => {
      let timer: NodeJS.Timeout | undefined;
      const listing = Promise.all(names.map((name) => r.catalog.view(name).catch(() => undefined)));
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STARTUP_LISTING_TIMEOUT_MS);
        timer.unref();
      });
      await Promise.race([listing, timeout]);
      clearTimeout(timer);
    },
    () => undefined,
  );
}
