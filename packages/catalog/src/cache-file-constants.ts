/**
 * The names and ages of `mcp-cache.json`: its file name, format version, how
 * long an entry lives. Plain values (no zod), read on a host's start path.
 */
export const CACHE_FILE_NAME = "mcp-cache.json";
export const CACHE_VERSION = 1;
/** Entries older than this are ignored and pruned: 7 days. */
export const CACHE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * An entry with a list that failed (`skipped`, reason `failed`) is served
 * this long instead: then the next lookup lists the server again, to fill
 * the list in. An hour: such failures are mostly a slow first start or a
 * backend briefly down, and an hour keeps that to one extra start per hour
 * while the tools are served from the cache meanwhile.
 */
export const FAILED_LIST_RETRY_MS = 60 * 60 * 1000;
