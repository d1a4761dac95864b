/**
 * The metadata cache file (`<agent dir>/mcp-cache.json`), shared by every Pi
 * process of a user. Reads never fail on bad content. Writes hold core's
 * `withFileLock`, re-read the file, merge in this process's entries, drop
 * expired ones and replace the file with core's `writeFileAtomic`, so readers
 * never see a torn file and concurrent writers do not drop each other's
 * servers. One write runs at a time: changes made while it runs go out
 * together in the next one (each write re-reads and re-serialises the whole
 * file, which holds every server's tools), a file this process wrote or
 * read last is not read again, and a listing that matches a recently saved
 * entry is not written again.
 */
import * as nodeFs from "node:fs/promises";
import { stat } from "node:fs/promises";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import type { ServerListing } from "./build-tool-metadata.js";
import { parseCacheFile } from "./cache-file.js";
import { CACHE_TTL_MS, CACHE_VERSION, FAILED_LIST_RETRY_MS } from "./cache-file-constants.js";
import { CachePins, type HeldCacheFile } from "./cache-file-pins.js";
import type { CacheEntry } from "./cache-file-schema.js";
import {
  formatCacheFile,
  listingFingerprints,
  listingTextHash,
  listsUnparsed,
  noteListingTextHash,
  readFromSmallText,
} from "./cache-file-text.js";
import { checkListingLimits, listingLimitProblem, MAX_LISTING_BYTES } from "./listing-limits.js";
import type { ServerPins } from "./tool-fingerprint.js";

/** How the cache reads its file (node's `fs/promises` by default; tests count reads). Writes always go through core. */
export type CacheFileSystem = Pick<typeof nodeFs, "readFile">;

export interface MetadataCacheOptions {
  /** The cache file, normally `<agent dir>/mcp-cache.json`. */
  file: string;
  /** Entries older than this are ignored; default 7 days. */
  ttlMs?: number;
  now?: () => number;
  fs?: CacheFileSystem;
  /** Called when the file on disk could not be used (it is then rebuilt). */
  onProblem?: (message: string) => void;
}

const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 10_000;

/** Changes waiting for the next write, and that write's outcome. */
interface Batch {
  changes: ((cache: HeldCacheFile) => void)[];
  written: Promise<void>;
}

export class MetadataCache {
  readonly file: string;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly fs: CacheFileSystem;
  private readonly onProblem: (message: string) => void;
  /** The cache as this process sees it: the file plus its own changes (replaced, never edited in place). */
  private snapshot: HeldCacheFile = { version: CACHE_VERSION, servers: {} };
  /** What the file held when this process last read or wrote it, and the file's stamp then. */
  private disk: { cache: HeldCacheFile; stamp: string } | undefined;
  /** Whether the file last read could hold a listing over the byte bound (a smaller file cannot). */
  private mayHoldLarge = false;
  /** Servers whose entry in the file turned out malformed when first read: not served, dropped on the next write. */
  private readonly bad = new Set<string>();
  /** The write under way (or last settled), and the batch queued behind it. */
  private writing: Promise<void> = Promise.resolve();
  private next: Batch | undefined;

  constructor(options: MetadataCacheOptions) {
    this.file = options.file;
    this.ttlMs = options.ttlMs ?? CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
    this.fs = options.fs ?? nodeFs;
    this.onProblem = options.onProblem ?? (() => {});
  }

  /** Reads the file into memory; a missing or unusable file gives an empty cache. */
  async load(): Promise<void> {
    const before = await fileStamp(this.file);
    const cache = await this.readFile();
    // Read outside the lock: only a file that did not change while it was read stands for the disk.
    const after = await fileStamp(this.file);
    this.disk = before !== undefined && before === after ? { cache, stamp: before } : undefined;
    this.snapshot = cache;
  }

  /**
   * The cached listing of a server, when it was saved under `key`, has not
   * expired (one with a failed list expires after an hour, so the server is
   * listed again to fill it in) and is within the catalog's bounds (an
   * older version may have saved a larger one; it is then listed live, and
   * refused).
   */
  get(server: string, key: string): ServerListing | undefined {
    const entry = this.snapshot.servers[server];
    if (!entry || entry.key !== key || this.expired(entry) || this.bad.has(server)) return undefined;
    const listing = entry.listing as ServerListing;
    // Lists still unparsed are checked when they are parsed (cache-file-text.ts); a listing whose own text in
    // the file is too short to be over the byte bound is not measured (a file with many servers and their
    // pins is often past the bound as a whole: measuring each listing cost a first search ~60 ms for 991 tools).
    const small = !this.mayHoldLarge || readFromSmallText(listing);
    if (!listsUnparsed(listing) && listingLimitProblem(server, listing, undefined, small)) return undefined;
    return listing;
  }

  /** When the server's fresh entry was saved (ms since epoch), if there is one. */
  savedAt(server: string, key: string): number | undefined {
    const entry = this.snapshot.servers[server];
    return entry && entry.key === key && !this.expired(entry) ? entry.savedAt : undefined;
  }

  /**
   * Stores a server's listing under `key` (in memory at once, on disk when the
   * promise settles). A listing over the catalog's bounds is refused with a
   * `CatalogError` and nothing is written.
   */
  async put(server: string, key: string, listing: ServerListing): Promise<void> {
    checkListingLimits(server, listing);
    // The schema (zod) is loaded by the first write, never by reading: a start-up with a warm cache skips it.
    const { ServerListingSchema } = await import("./cache-file-schema.js");
    const entry: CacheEntry = { key, savedAt: this.now(), listing: ServerListingSchema.parse(listing) };
    const current = this.snapshot.servers[server];
    if (this.unchanged(server, entry)) {
      // The file holds this content already: the listing is known by the hash of that text (where it is known).
      const hash = listingTextHash(current!.listing);
      if (hash !== undefined) noteListingTextHash(listing, hash);
      return;
    }
    // From the listed tools: the parsed copies are new objects, the listed ones were hashed by pinning.
    entry.fingerprints = listingFingerprints(entry.listing, listing.tools);
    // The copy is what the file will hold; the listing itself, what metadata is made of, has the same content.
    noteListingTextHash(entry.listing, entry.fingerprints.listing);
    noteListingTextHash(listing, entry.fingerprints.listing);
    this.bad.delete(server);
    await this.change((cache) => {
      cache.servers[server] = entry;
    });
  }

  /**
   * The pinned tools of a server, if it was ever pinned (pins do not expire).
   * The file's pins are parsed and checked by the first call (not by `load`).
   */
  pins(server: string): ServerPins | undefined {
    return this.readPins(this.snapshot)?.[server];
  }

  /**
   * Changes servers' pins (per server name) under the file lock, in one
   * write: each change gets the pins as they are on disk now (another
   * process may have accepted changes) and returns the pins to keep.
   */
  async updatePins(changes: Record<string, (pins: ServerPins | undefined) => ServerPins>): Promise<void> {
    const apply = (pins: Record<string, ServerPins> | undefined) => {
      const next = { ...pins };
      for (const [server, change] of Object.entries(changes)) next[server] = change(pins?.[server]);
      return next;
    };
    await this.change((cache) => {
      cache.pins = CachePins.of(apply(this.readPins(cache)));
    });
  }

  /** Forgets a server. */
  async delete(server: string): Promise<void> {
    await this.change((cache) => {
      delete cache.servers[server];
    });
  }

  /**
   * Whether `entry` repeats the server's entry as last read or written, saved
   * within the first half of its TTL, with its tools' fingerprints: rewriting it would only move `savedAt`
   * (an entry in use is still refreshed well before it expires).
   */
  private unchanged(server: string, entry: CacheEntry): boolean {
    const current = this.snapshot.servers[server];
    if (!current?.fingerprints || current.key !== entry.key || this.expired(current)) return false;
    if (entry.savedAt - current.savedAt > this.ttlMs / 2) return false;
    return JSON.stringify(current.listing) === JSON.stringify(entry.listing);
  }

  /** Past its TTL — the short one (`FAILED_LIST_RETRY_MS`) when a declared list failed — or from the future. */
  private expired(entry: CacheEntry): boolean {
    const failed = entry.listing.skipped?.some((s) => s.reason === "failed");
    const ttl = failed ? Math.min(this.ttlMs, FAILED_LIST_RETRY_MS) : this.ttlMs;
    return this.now() - entry.savedAt > ttl || entry.savedAt > this.now() + this.ttlMs;
  }

  /** The pins of `cache`, parsed and checked when first read; pins that fail count as none, and are reported. */
  private readPins(cache: HeldCacheFile): Record<string, ServerPins> | undefined {
    return cache.pins?.read((problem) =>
      this.onProblem(
        `ignoring the tool pins in ${this.file}: ${problem}; every server's tools will be pinned again as first seen`,
      ),
    );
  }

  private async readFile(): Promise<HeldCacheFile> {
    let bytes: Buffer | undefined;
    try {
      // Bytes: a start-up decodes only what it reads of them (cache-file-text.ts).
      bytes = await this.fs.readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.onProblem(`cannot read ${this.file}: ${(error as Error).message}`);
      }
    }
    // A file this short cannot hold a listing over the bound (a third of it, the margin this check had when it
    // counted UTF-16 units: a listing edited after the read is measured only past it).
    this.mayHoldLarge = bytes !== undefined && bytes.length * 3 > MAX_LISTING_BYTES;
    const { cache, problem } = parseCacheFile(bytes, (server) => {
      this.bad.add(server);
      this.onProblem(
        `ignoring the cached listing of "${server}" in ${this.file}: unexpected shape; it will be rebuilt`,
      );
    });
    if (problem) this.onProblem(`ignoring ${this.file}: ${problem}; it will be rebuilt`);
    return cache;
  }

  /** Makes `change` in memory at once, and on disk with the next write. */
  private change(change: (cache: HeldCacheFile) => void): Promise<void> {
    this.snapshot = edited(this.snapshot, [change]);
    return this.update(change);
  }

  /** Queues `change` for the next write; resolves once a write that includes it is on disk. */
  private update(change: (cache: HeldCacheFile) => void): Promise<void> {
    if (this.next) {
      this.next.changes.push(change);
      return this.next.written;
    }
    const batch: Batch = { changes: [change], written: Promise.resolve() };
    const after = this.writing.catch(() => {});
    batch.written = after.then(() => {
      if (this.next === batch) this.next = undefined; // changes made from now on wait for the write after this one
      return this.write(batch.changes);
    });
    this.next = batch;
    this.writing = batch.written;
    return batch.written;
  }

  private async write(changes: ((cache: HeldCacheFile) => void)[]): Promise<void> {
    try {
      await withFileLock(
        this.file,
        async () => {
          // Unchanged since this process last read or wrote it (no other writer meanwhile): no need to read it.
          const stamp = await fileStamp(this.file);
          const base = this.disk && stamp === this.disk.stamp ? this.disk.cache : await this.readFile();
          const cache = edited(base, changes);
          for (const [name, entry] of Object.entries(cache.servers)) {
            if (this.expired(entry) || this.bad.has(name)) delete cache.servers[name];
          }
          await writeFileAtomic(this.file, formatCacheFile(cache), { mode: 0o600 });
          const written = await fileStamp(this.file);
          this.disk = written === undefined ? undefined : { cache, stamp: written };
          // What the file holds now, plus the changes still queued for the next write.
          this.snapshot = edited(cache, this.next?.changes ?? []);
        },
        { timeoutMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS },
      );
    } catch (error) {
      // Never written without the lock: this process keeps its entry in memory and says why the file lacks it.
      this.onProblem(`cannot update ${this.file}: ${(error as Error).message}`);
      throw error;
    }
  }
}

/** A copy of `cache` (its server map copied too) with `changes` made to it; `cache` stays as it was. */
function edited(cache: HeldCacheFile, changes: readonly ((cache: HeldCacheFile) => void)[]): HeldCacheFile {
  const copy: HeldCacheFile = { ...cache, servers: { ...cache.servers } };
  for (const change of changes) change(copy);
  return copy;
}

/** Inode, size and modification time (ns) of the file: an atomic replace changes the inode. */
async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}
