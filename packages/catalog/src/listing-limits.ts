/**
 * What one server may put in the catalog: at most 10,000 entries in each of
 * its tools, resources, resource templates and prompts lists, and 4 MiB of
 * descriptor data in all (measured as the listing's JSON, instructions
 * included). A listing over either bound is refused whole, with an error
 * naming the server and the bound — never cut to a partial list — so search,
 * describe, memory and the metadata cache stay small whatever a server sends.
 */
import { CatalogError } from "./errors.js";

/** Entries one list (tools, resources, resource templates or prompts) of one server may hold. */
export const MAX_LISTING_ENTRIES = 10_000;
/** Bytes of descriptor data (the listing as JSON) one server may hold. */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

export interface ListingLimits {
  maxEntries: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: ListingLimits = { maxEntries: MAX_LISTING_ENTRIES, maxBytes: MAX_LISTING_BYTES };

/** The lists of a listing and the words that name them in messages. */
const LISTS = [
  ["tools", "tools"],
  ["resources", "resources"],
  ["resourceTemplates", "resource templates"],
  ["prompts", "prompts"],
] as const;

interface ListingShape {
  tools: readonly unknown[];
  resources?: readonly unknown[];
  resourceTemplates?: readonly unknown[];
  prompts?: readonly unknown[];
  instructions?: string;
}

/**
 * Why a server's listing is too large for the catalog, or `undefined` when it fits.
 * `skipBytes`: the caller knows the listing's JSON is small (e.g. the file it came from is).
 */
export function listingLimitProblem(
  server: string,
  listing: ListingShape,
  limits: ListingLimits = DEFAULT_LIMITS,
  skipBytes = false,
): string | undefined {
  for (const [key, label] of LISTS) {
    const count = listing[key]?.length ?? 0;
    if (count > limits.maxEntries) {
      return `Server "${server}" listed ${count.toLocaleString("en-US")} ${label}; a server may list at most ${limits.maxEntries.toLocaleString("en-US")} ${label}, so none of its entries were taken`;
    }
  }
  if (skipBytes) return undefined;
  const bytes = jsonBytesPast(listing, limits.maxBytes);
  if (bytes > limits.maxBytes) {
    return `Server "${server}" listed more than ${formatMiB(limits.maxBytes)} of tool, resource and prompt descriptions (at least ${formatMiB(bytes)}); a server may list at most ${formatMiB(limits.maxBytes)}, so none of its entries were taken`;
  }
  return undefined;
}

/** Throws a `CatalogError` (`catalog_too_large`) when the listing is over a bound (`skipBytes` as above). */
export function checkListingLimits(
  server: string,
  listing: ListingShape,
  limits?: ListingLimits,
  skipBytes = false,
): void {
  const problem = listingLimitProblem(server, listing, limits, skipBytes);
  if (problem) throw new CatalogError("catalog_too_large", problem);
}

/**
 * About the UTF-8 size of `value` as JSON (escapes counted as one character),
 * walked without building the JSON; stops counting once past `limit`.
 */
function jsonBytesPast(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= limit) {
    const item = stack.pop();
    if (typeof item === "string") total += Buffer.byteLength(item, "utf8") + 2;
    else if (Array.isArray(item)) {
      total += 1 + item.length;
      for (const entry of item) stack.push(entry);
    } else if (item !== null && typeof item === "object") {
      for (const [key, entry] of Object.entries(item)) {
        if (entry === undefined) continue;
        total += Buffer.byteLength(key, "utf8") + 4;
        stack.push(entry);
      }
      total += 1;
    } else total += String(item).length;
  }
  return total;
}

function formatMiB(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}
