/**
 * The caching hints of 2026-07-28 listing results (`ttlMs`, `cacheScope`:
 * the `CacheableResult` fields of `tools/list`, `prompts/list`,
 * `resources/list` and `resources/templates/list`), noted per list as the
 * connection lists and read as one hint for the whole listing: the shortest
 * `ttlMs`, and `private` when any list is private. A 2025 server sends none.
 */

/** How long a listing may be taken as fresh, and whom it may be served to. */
export interface CacheHints {
  /** Milliseconds the listing may be taken as fresh (0: stale at once). */
  ttlMs?: number;
  /** `public`: any user may be served it; `private`: only the user it was listed for. */
  cacheScope?: "public" | "private";
}

export class ListingHints {
  private readonly byList = new Map<string, CacheHints>();

  /** Notes the hints of a list's first page (later pages repeat them); returns the page. */
  noted<T>(list: string, cursor: string | undefined, page: T): T {
    if (cursor !== undefined) return page;
    const { ttlMs, cacheScope } = (page ?? {}) as { ttlMs?: unknown; cacheScope?: unknown };
    const hints: CacheHints = {
      ...(typeof ttlMs === "number" && Number.isFinite(ttlMs) && ttlMs >= 0 ? { ttlMs } : {}),
      ...(cacheScope === "public" || cacheScope === "private" ? { cacheScope } : {}),
    };
    if (Object.keys(hints).length) this.byList.set(list, hints);
    else this.byList.delete(list);
    return page;
  }

  /** The hints of every list noted, as one; undefined when no list carried any. */
  combined(): CacheHints | undefined {
    if (!this.byList.size) return undefined;
    const all = [...this.byList.values()];
    const ttls = all.flatMap((h) => (h.ttlMs === undefined ? [] : [h.ttlMs]));
    const scopes = all.flatMap((h) => (h.cacheScope ? [h.cacheScope] : []));
    return {
      ...(ttls.length ? { ttlMs: Math.min(...ttls) } : {}),
      ...(scopes.length ? { cacheScope: scopes.includes("private") ? "private" : "public" } : {}),
    };
  }
}
