/**
 * How `mcp-cache.json` is laid out as text, so that a start-up parses only
 * what it uses. The file is one JSON document (any version reads it with
 * `JSON.parse`), written one server entry per line, each listing's
 * `instructions`, `serverInfo` (its title and description), `prompts`,
 * `skipped` (declared lists that did not come), `skills` (SEP-2640
 * entries) and `refusedSkills` (entries that failed the checks) before its `tools`:
 *
 *   {"version":1,"servers":{
 *   "docs":{"key":"…","savedAt":…,"fingerprints":{…},"listing":{"instructions":"…","prompts":[…],"tools":[…]}},
 *   …
 *   },"pins":{…}}
 *
 * Read in that layout, each entry's key, time, instructions, server info,
 * prompts, skipped lists and skills are parsed at once (the proxy tool's
 * roster, the prompt commands, the skills offered and the cache's freshness
 * need them for every server), its
 * tools, resources and resource templates when first read (direct tools,
 * the first search), from the line's text: checked then against the cache
 * file's shape and the catalog's bounds, and with no lists at all when they
 * fail. A file in any other layout (written by an older version, or by
 * hand) is left to the caller to parse whole; the next write puts it in
 * this layout.
 *
 * An entry keeps its tools' pin fingerprints (`fingerprints`, with a hash of
 * the listing's text they were made for), so a session compares a cached
 * listing with its pins without hashing a thousand tools: when the lists are
 * first read and the text still has that hash, the tools take them.
 */
import { hash } from "node:crypto";
import type { RemoteTool } from "@pi-mcp-adapter/core";

import { isListingHead, isListingRest } from "./cache-file-check.js";
import { CachePins, type HeldCacheFile } from "./cache-file-pins.js";
import type { CachedServerListing, CacheEntry, ListingFingerprints } from "./cache-file-schema.js";
import { listingLimitProblem, MAX_LISTING_BYTES } from "./listing-limits.js";
import { adoptFingerprints, toolFingerprint } from "./tool-fingerprint.js";

/** The lists a start-up leaves as text until first read. */
type ListingRest = Pick<CachedServerListing, "tools" | "resources" | "resourceTemplates">;
const REST_KEYS = ["tools", "resources", "resourceTemplates"] as const;

/** A listing read from the file: its bytes (`{…}`), where its tools start in them, its lists once parsed, and the bytes' hash once taken. */
interface LazyListing {
  bytes: Buffer;
  restAt: number;
  rest?: ListingRest;
  hash?: string;
}
const lazyListings = new WeakMap<object, LazyListing>();
/** Listings given to the cache this process, with the hash of the text written for them (`noteListingTextHash`). */
const writtenHashes = new WeakMap<object, string>();

// `"name":{"key":"…","savedAt":123,"fingerprints":{…},"listing":{` — JSON strings written by JSON.stringify, a
// plain number, and optionally the tools' fingerprints (hex digests only).
const ENTRY_START =
  /^("(?:[^"\\]|\\.)*"):\{"key":("(?:[^"\\]|\\.)*"),"savedAt":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?:,"fingerprints":(\{"listing":"[0-9a-f]{64}","tools":\[(?:"[0-9a-f]{64}"(?:,"[0-9a-f]{64}")*)?\]\}))?,"listing":\{/;
const TOOLS_KEY = '"tools":[';
const PINS_START = '},"pins":';
const LISTING_KEY = ',"listing":{';
const NEWLINE = 0x0a;
/** What a listing holds before its tools in the file: read at once. */
const HEAD_KEYS = new Set(["instructions", "serverInfo", "prompts", "skipped", "skills", "refusedSkills"]);

/** The file's text for `cache`, one entry per line (see the module comment). */
export function formatCacheFile(cache: HeldCacheFile): string {
  const lines = Object.entries(cache.servers).map(
    ([name, entry]) =>
      `${JSON.stringify(name)}:{"key":${JSON.stringify(entry.key)},"savedAt":${JSON.stringify(entry.savedAt)}${fingerprintsText(entry.fingerprints)},"listing":${listingText(entry.listing)}}`,
  );
  // Pins never read by this process are written back as the very text they were read as.
  const pinsJson = cache.pins?.json();
  const pins = pinsJson === undefined ? "" : `,"pins":${pinsJson}`;
  const body = lines.length ? `${lines.join(",\n")}\n` : "";
  return `{"version":${cache.version},"servers":{\n${body}}${pins}}\n`;
}

/**
 * The cache in `bytes` (the file as read) when they are in this module's
 * layout, its lists and pins left undecoded and unparsed; `undefined` for
 * anything else (the caller parses it whole). Only a line's head (its entry's
 * key, time, fingerprints and the listing's head) is decoded at once: JSON
 * escapes every newline and quote inside a string, and no byte of a multi-byte
 * UTF-8 character is ASCII, so the byte patterns below cannot occur inside a
 * string. `onBadEntry` hears of an entry whose lists turn out malformed when
 * first read: it then has none.
 */
export function readCacheFileBytes(
  bytes: Buffer,
  version: number,
  onBadEntry: (server: string) => void,
): HeldCacheFile | undefined {
  // Each line as [start, end) in `bytes`, without its newline; the file ends with one.
  const lines: [number, number][] = [];
  for (let at = 0; at < bytes.length; ) {
    const end = bytes.indexOf(NEWLINE, at);
    if (end < 0) return undefined;
    lines.push([at, end]);
    at = end + 1;
  }
  const text = (line: [number, number] | undefined) => line && bytes.toString("utf8", line[0], line[1]);
  if (text(lines[0]) !== `{"version":${version},"servers":{`) return undefined;
  const opensWith = (line: [number, number] | undefined, byte: number) => line && bytes[line[0]] === byte;
  const servers: Record<string, CacheEntry> = {};
  let i = 1;
  for (; i < lines.length && !opensWith(lines[i], 0x7d); i++) {
    const [start, end] = lines[i]!;
    // Every entry but the last ends with a comma.
    const last = opensWith(lines[i + 1], 0x7d) === true;
    if ((bytes[end - 1] === 0x2c) === last) return undefined;
    const read = readEntry(bytes.subarray(start, last ? end : end - 1), onBadEntry);
    if (!read || read.name === "__proto__" || read.name in servers) return undefined;
    servers[read.name] = read.entry;
  }
  // `}}` or `},"pins":{…}}`, the last line. The pins are checked when first read.
  if (i + 1 !== lines.length) return undefined;
  const [start, end] = lines[i]!;
  // `version` is the caller's CACHE_VERSION (the first line said so).
  const cache = { version, servers } as HeldCacheFile;
  if (end - start === 2 && text(lines[i]) === "}}") return cache;
  const pinsAt = start + PINS_START.length;
  if (bytes.toString("utf8", start, pinsAt) !== PINS_START || bytes[end - 1] !== 0x7d) return undefined;
  return { ...cache, pins: CachePins.fromBytes(bytes.subarray(pinsAt, end - 1)) };
}

/**
 * Whether a listing's lists are still unparsed (read from the file, not read
 * since). The catalog's bounds are checked when they are parsed: a listing
 * over them then has no lists (this version never writes one; only an edited
 * file can hold one).
 */
export function listsUnparsed(listing: object): boolean {
  const lazy = lazyListings.get(listing);
  return lazy !== undefined && !lazy.rest;
}

/**
 * Whether a listing is still as read from a cache file's text small enough
 * that it cannot be over the byte bound (its lists parsed or not): the
 * catalog then need not measure it again.
 */
export function readFromSmallText(listing: object): boolean {
  const lazy = lazyListings.get(listing);
  return lazy !== undefined && lazy.bytes.length <= MAX_LISTING_BYTES;
}

function readEntry(
  line: Buffer,
  onBadEntry: (server: string) => void,
): { name: string; entry: CacheEntry } | undefined {
  // The entry up to its listing (name, key, time, fingerprints): `,"listing":{` cannot occur in a JSON string.
  const listingAt = line.indexOf(LISTING_KEY);
  if (listingAt < 0 || line[line.length - 1] !== 0x7d || line[line.length - 2] !== 0x7d) return undefined;
  const opening = line.toString("utf8", 0, listingAt + LISTING_KEY.length);
  const start = ENTRY_START.exec(opening);
  if (start?.[0].length !== opening.length) return undefined;
  let name: string;
  let key: string;
  try {
    name = JSON.parse(start[1]!) as string;
    key = JSON.parse(start[2]!) as string;
  } catch {
    return undefined;
  }
  const savedAt = Number(start[3]);
  if (!Number.isFinite(savedAt)) return undefined;
  // Hex digests only (the pattern above): this parse cannot fail.
  const fingerprints = start[4] === undefined ? undefined : (JSON.parse(start[4]) as ListingFingerprints);
  // The listing's own bytes, `{…}`; its head (instructions, prompts) ends where its tools start.
  const bytes = line.subarray(listingAt + LISTING_KEY.length - 1, -1);
  const at =
    bytes.toString("latin1", 0, TOOLS_KEY.length + 1) === `{${TOOLS_KEY}`
      ? 0
      : bytes.indexOf(`,${TOOLS_KEY}`);
  if (at < 0) return undefined;
  let head: unknown;
  try {
    head = at === 0 ? {} : JSON.parse(`${bytes.toString("utf8", 0, at)}}`);
  } catch {
    return undefined;
  }
  if (!isListingHead(head) || Object.keys(head as object).some((k) => !HEAD_KEYS.has(k))) return undefined;
  const lazy: LazyListing = { bytes, restAt: at };
  const listing = lazyListing(head as Partial<CachedServerListing>, lazy, fingerprints, () =>
    onBadEntry(name),
  );
  return { name, entry: { key, savedAt, ...(fingerprints ? { fingerprints } : {}), listing } };
}

const HEX_DIGEST = /^[0-9a-f]{64}$/;

/** `,"fingerprints":{…}` for the entry's line, or nothing when it has none of the form this module reads back. */
function fingerprintsText(fingerprints: ListingFingerprints | undefined): string {
  // A file in another layout (edited by hand) may hold anything there: kept only when the line reads back.
  if (
    !fingerprints ||
    !HEX_DIGEST.test(fingerprints.listing) ||
    !fingerprints.tools.every((t) => HEX_DIGEST.test(t))
  )
    return "";
  return `,"fingerprints":${JSON.stringify({ listing: fingerprints.listing, tools: fingerprints.tools })}`;
}

/**
 * The fingerprints to keep with `listing` in the file: its text's hash, and its tools' fingerprints taken
 * from `listed` (the same tools as listed, whose fingerprints pinning made already; computed where not).
 */
export function listingFingerprints(
  listing: CachedServerListing,
  listed: readonly RemoteTool[] = listing.tools,
): ListingFingerprints {
  return { listing: textHash(listingText(listing)), tools: listed.map(toolFingerprint) };
}

/**
 * SHA-256 of the text a cache file holds for this listing object: a listing
 * read from the file and unchanged since (its own bytes), or one this
 * process stored (`noteListingTextHash`); `undefined` for any other. Two
 * listings with the same hash have the same content, so whatever is made
 * only of a listing can be keyed by it across processes.
 */
export function listingTextHash(listing: object): string | undefined {
  const lazy = lazyListings.get(listing);
  if (lazy) return bytesHash(lazy);
  return writtenHashes.get(listing);
}

/** Notes the hash of the text the file holds for `listing` (given to `MetadataCache.put`, or the copy it wrote). */
export function noteListingTextHash(listing: object, hash: string): void {
  if (!lazyListings.has(listing)) writtenHashes.set(listing, hash);
}

function bytesHash(lazy: LazyListing): string {
  lazy.hash ??= textHash(lazy.bytes);
  return lazy.hash;
}

/** SHA-256 of a listing's text (its UTF-8 bytes, as the file holds them). */
function textHash(text: string | Buffer): string {
  return hash("sha256", text, "hex");
}

/** The listing with `head`'s fields, and getters that parse the lists on first read. */
function lazyListing(
  head: Partial<CachedServerListing>,
  lazy: LazyListing,
  fingerprints: ListingFingerprints | undefined,
  onBad: () => void,
): CachedServerListing {
  const rest = (): ListingRest => {
    if (lazy.rest) return lazy.rest;
    let parsed: unknown;
    try {
      // From its tools on, as an object of its own: `{"tools":[…],…}`.
      parsed = JSON.parse(
        lazy.restAt === 0 ? lazy.bytes.toString() : `{${lazy.bytes.toString("utf8", lazy.restAt + 1)}`,
      );
    } catch {
      parsed = undefined;
    }
    const whole = { ...head, ...(parsed as ListingRest) };
    if (
      isListingRest(parsed) &&
      !listingLimitProblem("", whole, undefined, lazy.bytes.length <= MAX_LISTING_BYTES)
    ) {
      lazy.rest = parsed as ListingRest;
      // Made for exactly this text: the tools need no hashing for their pins.
      if (fingerprints?.tools.length === lazy.rest.tools.length && fingerprints.listing === bytesHash(lazy))
        adoptFingerprints(lazy.rest.tools, fingerprints.tools);
    } else {
      // Malformed lists: none are served, and the file's text for them is not written back.
      lazy.rest = { tools: [] };
      lazyListings.delete(listing);
      onBad();
    }
    return lazy.rest;
  };
  const listing = { ...head } as CachedServerListing;
  for (const key of REST_KEYS) {
    Object.defineProperty(listing, key, {
      enumerable: true,
      configurable: true,
      get: () => rest()[key],
      set: (value) => {
        // Edited: no longer what the file holds.
        lazy.rest = { ...rest(), [key]: value };
        lazyListings.delete(listing);
      },
    });
  }
  lazyListings.set(listing, lazy);
  return listing;
}

/** A listing's JSON with `instructions`, `serverInfo`, `prompts` and `skipped` first: the text a read-back keeps, when it has it. */
function listingText(listing: CachedServerListing): string {
  const lazy = lazyListings.get(listing);
  if (lazy) return lazy.bytes.toString();
  const { instructions, serverInfo, prompts, skipped, skills, refusedSkills } = listing;
  const { tools, resources, resourceTemplates } = listing;
  return JSON.stringify({
    instructions,
    serverInfo,
    prompts,
    skipped,
    skills,
    refusedSkills,
    tools,
    resources,
    resourceTemplates,
  });
}
