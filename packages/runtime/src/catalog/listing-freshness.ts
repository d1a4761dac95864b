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
 * - `cacheScope`: `private` lets only the requesting client cache a result,
 *   `public` shared caches too. The metadata cache is this user's own file
 *   (mode 0600 in the agent dir, read by no one else, never shared between
 *   users), so both are kept in it; a listing made for another account after
 *   a re-login replaces the entry at the next connection.
 */
import type { ServerConnection } from "@pi-mcp-adapter/transport";

/** What the catalog reads of a connection for this. */
export type FreshnessSource = Partial<Pick<ServerConnection, "cacheHints" | "features">>;

/** Until when (ms since epoch) a listing made at `listedAt` is current; `Infinity` when no TTL applies. */
export function currentUntil(source: FreshnessSource, listedAt: number): number {
  const ttl = source.cacheHints?.()?.ttlMs;
  const notified = source.features?.toolsListChanged === true;
  return ttl === undefined || notified ? Number.POSITIVE_INFINITY : listedAt + ttl;
}
