/**
 * Direct tools before Pi's first model request. The startup snapshot holds
 * each server's cached metadata, so a warm cache registers everything with
 * no server started. A server that wants direct tools but has no cached
 * metadata (first run, edited definition) is listed now, while Pi still
 * waits for the extension factory, so `-p` and `--mode json` runs see its
 * tools in the first request too; the listing lands in the shared cache,
 * so the session's runtime starts warm. `deferWithMissingMetadata: true`
 * skips that wait: those servers are listed when the session starts and
 * their tools appear a turn later. `directTools: "auto"` is decided from the
 * snapshot alone (the session's runtime decides the same from it): no
 * server is started to find out how large the catalog is.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import {
  createRuntime,
  type DirectToolSettings,
  directSelection,
  type PlanInput,
  planDirectTools,
  type RuntimeSource,
  type StartupSnapshot,
  serversNeedingListing,
  snapshotAutoDirect,
} from "@pi-mcp-adapter/runtime";
import type { DirectToolRegistrar } from "./direct-tools.js";

/** How long start-up waits for servers without cached metadata before registering without them. */
export const STARTUP_LISTING_TIMEOUT_MS = 30_000;

export interface StartupDirectTools {
  /** Servers left to list in the session (`deferWithMissingMetadata`). */
  deferred: string[];
  /** Metadata per server as registered now: the snapshot's, plus what was listed at start-up. */
  metadata: Map<string, readonly ToolMetadata[]>;
}

export async function registerStartupDirectTools(
  snapshot: StartupSnapshot,
  settings: DirectToolSettings,
  registrar: DirectToolRegistrar,
  reserved: readonly string[],
  /** Config source of the snapshot (to list missing servers with the same config). */
  source: RuntimeSource,
): Promise<StartupDirectTools> {
  const auto = snapshotAutoDirect(snapshot);
  // Only servers with direct tools need their cached metadata (built on first read), the rest never do.
  const inputs: PlanInput[] = snapshot.servers.map((s) => ({
    definition: s.server,
    metadata: directSelection(s.server, settings, auto) ? s.metadata : undefined,
  }));
  const missing = serversNeedingListing(inputs, settings);
  const deferred = settings.deferWithMissingMetadata ? missing : [];
  if (missing.length && !settings.deferWithMissingMetadata) {
    const listed = await listServers({ ...source, snapshot }, missing);
    for (const input of inputs) input.metadata ??= listed.get(input.definition.name);
  }
  registrar.sync(planDirectTools(inputs, settings, reserved, auto));
  const metadata = new Map<string, readonly ToolMetadata[]>();
  for (const input of inputs) if (input.metadata) metadata.set(input.definition.name, input.metadata);
  return { deferred, metadata };
}

/** Lists `names` with a short-lived headless runtime (no dialogs, no OAuth logins); failures are left out. */
async function listServers(source: RuntimeSource, names: string[]): Promise<Map<string, ToolMetadata[]>> {
  const listed = new Map<string, ToolMetadata[]>();
  const runtime = await createRuntime({ ...source, oauth: { warn: () => {} } });
  let timer: NodeJS.Timeout | undefined;
  try {
    const listing = Promise.all(
      names.map(async (name) => {
        const view = await runtime.catalog(name).catch(() => undefined);
        if (view && view.unavailable.length === 0) listed.set(name, view.tools);
      }),
    );
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STARTUP_LISTING_TIMEOUT_MS);
      timer.unref();
    });
    await Promise.race([listing, timeout]);
  } finally {
    clearTimeout(timer);
    await runtime.shutdown().catch(() => {});
  }
  return listed;
}
