/**
 * Reading `mcp-cache.json` (its shape is `cache-file-schema.ts`): the layout
 * this version writes (`cache-file-text.ts`), or any other JSON of the right
 * shape, whole.
 */
import { isCacheFile } from "./cache-file-check.js";
import { CACHE_VERSION } from "./cache-file-constants.js";
import { CachePins, type HeldCacheFile } from "./cache-file-pins.js";
import type { CacheFile } from "./cache-file-schema.js";
import { readCacheFileBytes } from "./cache-file-text.js";

/**
 * Parses cache file text. Anything unreadable — corrupt or truncated JSON, a
 * different version, a wrong shape — yields an empty cache (and a reason), so
 * it is rebuilt on the next write instead of failing. Text in the layout this
 * version writes (`cache-file-text.ts`) keeps each server's tools, resources
 * and templates, and the pins, unparsed until first read; `onBadEntry` hears
 * of a server whose lists then turn out malformed.
 */
export function parseCacheFile(
  bytes: Buffer | undefined,
  onBadEntry: (server: string) => void = () => {},
): { cache: HeldCacheFile; problem?: string } {
  const empty: HeldCacheFile = { version: CACHE_VERSION, servers: {} };
  if (bytes === undefined) return { cache: empty };
  const laidOut = readCacheFileBytes(bytes, CACHE_VERSION, onBadEntry);
  if (laidOut) return { cache: laidOut };
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString());
  } catch {
    return { cache: empty, problem: "not valid JSON (corrupt or truncated)" };
  }
  if (isCacheFile(json, CACHE_VERSION)) {
    const { pins, ...rest } = json as CacheFile;
    return { cache: pins === undefined ? rest : { ...rest, pins: CachePins.of(pins) } };
  }
  const version = (json as { version?: unknown } | null)?.version;
  return {
    cache: empty,
    problem:
      version !== CACHE_VERSION
        ? `version ${String(version)}, expected ${CACHE_VERSION}`
        : "unexpected shape",
  };
}
