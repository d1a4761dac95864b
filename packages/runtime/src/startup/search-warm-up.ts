/**
 * Warms search up in idle time, so the session's first search does not pay
 * for first-time work. First what every first search needs: unless
 * `pinTools` is off, each server's cached tools hashed for tool pinning
 * (`hashToolsAhead`: the fingerprints the first listing of each server is
 * compared with its pins by, kept per listed tool, and what pinning a server
 * not pinned yet needs), then the word vectors and the lexicon read. Then,
 * unless the session has its index by now, or the search index kept on disk
 * (`mcp-search-index.bin`, see `search-index-store.ts`) was made of the
 * snapshot's tools (the session will read it), every server's cached tools
 * are analysed for the index (`prepareSearch`: each text's terms and the
 * lexicon's words for each name, kept for the process and found again by
 * the session's metadata, which is built from the same cached listings).
 * No index is built here (a throwaway index per server trained the
 * compiler on small indexes and made later searches of the real one
 * slower); the session's catalog builds its own, with nothing of its state
 * touched (no listing, status or pin change is seen earlier than without
 * the warm-up). Each server is one step and every step waits for the event
 * loop (`setImmediate`), so a request, a call or a turn that comes in runs
 * between steps, and for the host's `whenFree` (Pi: while the model's tool
 * calls run, no step is taken — what a search needs it does itself, and the
 * rest would only delay its answer). Runs once per process.
 */
import { hashToolsAhead, serverIdentity } from "@pi-mcp-adapter/catalog";
import {
  englishLexicon,
  englishWordVectors,
  prepareSearch,
  searchIndexBytesMatch,
} from "@pi-mcp-adapter/search";
import { pinMode } from "../calls/tool-pins.js";
import {
  forgetKeptIndexBytes,
  keptIndexBytes,
  keptOptions,
  searchIndexFileBeside,
  wholeCatalogIndexed,
} from "../catalog/search-index-store.js";
import { metadataToolsKey } from "../catalog/shared-metadata.js";
import { contextByServer, keywordsByServer, searchableTools } from "../catalog/tool-catalog.js";
import { nextFreeTurn } from "../host.js";
import type { SnapshotServer, StartupSnapshot } from "./startup-snapshot.js";

let warmed: Promise<void> | undefined;

export interface WarmUpOptions {
  /** When the host has nothing waiting on this process: `undefined` now, else a promise settling then. */
  whenFree?: () => Promise<void> | undefined;
}

/** Warms search up from the snapshot's cached listings (once per process; later calls get the same promise). */
export function warmUpSearch(snapshot: StartupSnapshot, options: WarmUpOptions = {}): Promise<void> {
  const nextTurn = () => nextFreeTurn(options.whenFree);
  warmed ??= run(snapshot, nextTurn).catch(() => {});
  return warmed;
}

async function run(snapshot: StartupSnapshot, nextTurn: () => Promise<void>): Promise<void> {
  const cached = snapshot.servers.filter((s) => s.listing !== undefined && !s.server.disabled);
  if (cached.length === 0) return;
  if (pinMode(snapshot.config.settings.pinTools) !== "off") {
    for (const { server, listing } of cached) {
      await nextTurn();
      const pins = snapshot.cache?.pins(server.name);
      hashToolsAhead(listing!.tools, pins?.identity !== serverIdentity(server));
    }
  }
  await nextTurn();
  englishWordVectors();
  await nextTurn();
  englishLexicon.related("search");
  if (wholeCatalogIndexed() || (await keptIndexFits(snapshot, cached, nextTurn))) return;
  for (const cachedServer of cached) {
    await nextTurn();
    // The snapshot's metadata (built once, also for direct tools), from the listing the session's catalog uses.
    if (!wholeCatalogIndexed()) prepareSearch(cachedServer.metadata!);
  }
}

/**
 * Whether the index kept on disk was made of the cached servers' tools (as
 * the session's catalog lists them from the same cache, with the config's
 * `searchKeywords` and the listings' server context): one step; the session's first index reads the same bytes and search does not key them again.
 */
async function keptIndexFits(
  snapshot: StartupSnapshot,
  cached: SnapshotServer[],
  nextTurn: () => Promise<void>,
): Promise<boolean> {
  if (!snapshot.cache) return false;
  // The bytes the session's first index reads too: they are read, and their key made, once.
  const file = searchIndexFileBeside(snapshot.cache.file);
  const bytes = await keptIndexBytes(file);
  if (bytes) {
    await nextTurn();
    // The tools, keywords and servers' own text as the session's catalog gathers them (tool-catalog.ts).
    const searchKeywords = keywordsByServer(snapshot.servers.map((s) => s.server));
    const serverContext = contextByServer(cached.map((s) => [s.server.name, s.listing]));
    const metadata = cached.map((s) => s.metadata);
    const tools = searchableTools(metadata);
    const options = keptOptions({
      searchKeywords,
      serverContext,
      toolsKey: () => metadataToolsKey(metadata),
    });
    if (searchIndexBytesMatch(bytes, tools, options)) return true;
  }
  forgetKeptIndexBytes(file);
  return false;
}
