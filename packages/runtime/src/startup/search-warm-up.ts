/**
 * Warms search up in idle time, so the session's first search does not pay
 * for first-time work: every server's cached tools are analysed for the
 * index (`prepareSearch`: each text's terms and the lexicon's words for each
 * name, kept for the process and found again by the session's metadata,
 * which is built from the same cached listings) and, unless `pinTools` is
 * off, hashed for tool pinning (`hashToolsAhead`: the fingerprints the first
 * listing of each server is compared with its pins by, kept per listed tool,
 * and what pinning a server not pinned yet needs); then the word vectors
 * are read. No index is built here (a throwaway index per server trained the
 * compiler on small indexes and made later searches of the real one
 * slower); the session's catalog builds its own, with nothing of its state
 * touched (no listing, status or pin change is seen earlier than without
 * the warm-up). Each server is one step and every step waits for the event
 * loop (`setImmediate`), so a request, a call or a turn that comes in runs
 * between steps. Runs once per process.
 */
import { hashToolsAhead, serverIdentity } from "@pi-mcp-adapter/catalog";
import { englishWordVectors, prepareSearch } from "@pi-mcp-adapter/search";
import { pinMode } from "../calls/tool-pins.js";
import type { StartupSnapshot } from "./startup-snapshot.js";

let warmed: Promise<void> | undefined;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Warms search up from the snapshot's cached listings (once per process; later calls get the same promise). */
export function warmUpSearch(snapshot: StartupSnapshot): Promise<void> {
  warmed ??= run(snapshot).catch(() => {});
  return warmed;
}

async function run(snapshot: StartupSnapshot): Promise<void> {
  const cached = snapshot.servers.filter((s) => s.listing !== undefined && !s.server.disabled);
  if (cached.length === 0) return;
  const pinning = pinMode(snapshot.config.settings.pinTools) !== "off";
  for (const cachedServer of cached) {
    await nextTurn();
    const { server, listing } = cachedServer;
    if (pinning) {
      const pins = snapshot.cache?.pins(server.name);
      hashToolsAhead(listing!.tools, pins?.identity !== serverIdentity(server));
    }
    // The snapshot's metadata (built once, also for direct tools), from the listing the session's catalog uses.
    prepareSearch(cachedServer.metadata!);
  }
  await nextTurn();
  englishWordVectors();
}
