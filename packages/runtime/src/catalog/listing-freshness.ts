/**
 * What the caching hints of a 2026-07-28 listing (`ttlMs`, `cacheScope` on
 * `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`)
 * mean for the catalog:
 *
 * - `ttlMs`: how long a listing made this session is taken as current. Past
 *   it, the server is listed again at the catalog's next use of it (a search,
 *   a call), the old listing serving meanwhile. A server that declares
 *   `tools.listChanged` keeps its listing current by telling of changes, so
 *   no TTL applies to it (the SDK's default `ttlMs: 0` would otherwise mean a
 *   listing before every call). A listing read from the disk cache is a hint
 *   of what a server offers, never taken as current (as the SDK keeps a stale
 *   `tools/list` for its schemas): a call still reaches the server itself.
 * - `cacheScope: "private"` from a remote server: the listing belongs to the
 *   account it was listed for (OAuth, a token), which the metadata cache file's
 *   key (the server's definition) does not capture, and that file is shared by
 *   every session of the user: it stays in this session's memory, and an older
 *   entry of the server is dropped from the file. A stdio server runs as the
 *   user with its definition's environment (which the key does capture): its
 *   private listing is the user's own and is cached as before. `public`, or no
 *   hint (every 2025 server), is cached as before.
 */
import type { ServerConnection } from "@pi-mcp-adapter/transport";

/** What the catalog reads of a connection for this. */
export type FreshnessSource = Partial<Pick<ServerConnection, "cacheHints" | "features" | "via">>;

export interface ListingFreshness {
  /** Until when (ms since epoch) the listing is current; `Infinity` when no TTL applies. */
  currentUntil: number;
  /** Whether it may be written to the shared metadata cache file. */
  shared: boolean;
}

const REMOTE = new Set(["streamable-http", "sse"]);

export function listingFreshness(source: FreshnessSource, listedAt: number): ListingFreshness {
  const hints = source.cacheHints?.();
  const ttl = hints?.ttlMs;
  const notified = source.features?.toolsListChanged === true;
  return {
    currentUntil: ttl === undefined || notified ? Number.POSITIVE_INFINITY : listedAt + ttl,
    shared: !(hints?.cacheScope === "private" && REMOTE.has(source.via ?? "")),
  };
}
