/**
 * The metadata cache file (`<agent dir>/mcp-cache.json`), shared by every Pi
 * process of a user. Reads never fail on bad content. Writes hold a short
 * lock file, re-read the file, merge in this process's entries, drop expired
 * ones and replace the file through `<file>.<pid>.tmp` + rename, so readers
 * never see a torn file and concurrent writers do not drop each other's
 * servers.
 */
import * as nodeFs from "node:fs/promises";
import path from "node:path";
import type { ServerListing } from "./build-tool-metadata.js";
import {
  CACHE_TTL_MS,
  CACHE_VERSION,
  type CacheEntry,
  type CacheFile,
  parseCacheFile,
  ServerListingSchema,
} from "./cache-file.js";

/** The file operations the cache uses (node's `fs/promises` by default). */
export type CacheFileSystem = Pick<
  typeof nodeFs,
  "readFile" | "writeFile" | "rename" | "rm" | "mkdir" | "open" | "stat"
>;

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

const LOCK_WAIT_MS = 3000;
const LOCK_STALE_MS = 10_000;

export class MetadataCache {
  readonly file: string;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly fs: CacheFileSystem;
  private readonly onProblem: (message: string) => void;
  private snapshot: CacheFile = { version: CACHE_VERSION, servers: {} };

  constructor(options: MetadataCacheOptions) {
    this.file = options.file;
    this.ttlMs = options.ttlMs ?? CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
    this.fs = options.fs ?? nodeFs;
    this.onProblem = options.onProblem ?? (() => {});
  }

  /** Reads the file into memory; a missing or unusable file gives an empty cache. */
  async load(): Promise<void> {
    this.snapshot = await this.readFile();
  }

  /** The cached listing of a server, when it was saved under `key` and has not expired. */
  get(server: string, key: string): ServerListing | undefined {
    const entry = this.snapshot.servers[server];
    if (!entry || entry.key !== key || this.expired(entry)) return undefined;
    return entry.listing as ServerListing;
  }

  /** When the server's fresh entry was saved (ms since epoch), if there is one. */
  savedAt(server: string, key: string): number | undefined {
    const entry = this.snapshot.servers[server];
    return entry && entry.key === key && !this.expired(entry) ? entry.savedAt : undefined;
  }

  /** Stores a server's listing under `key` (in memory at once, on disk when the promise settles). */
  async put(server: string, key: string, listing: ServerListing): Promise<void> {
    const entry: CacheEntry = { key, savedAt: this.now(), listing: ServerListingSchema.parse(listing) };
    this.snapshot.servers[server] = entry;
    await this.update((cache) => {
      cache.servers[server] = entry;
    });
  }

  /** Forgets a server. */
  async delete(server: string): Promise<void> {
    delete this.snapshot.servers[server];
    await this.update((cache) => {
      delete cache.servers[server];
    });
  }

  private expired(entry: CacheEntry): boolean {
    return this.now() - entry.savedAt > this.ttlMs || entry.savedAt > this.now() + this.ttlMs;
  }

  private async readFile(): Promise<CacheFile> {
    let text: string | undefined;
    try {
      text = await this.fs.readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        this.onProblem(`cannot read ${this.file}: ${(error as Error).message}`);
      }
    }
    const { cache, problem } = parseCacheFile(text);
    if (problem) this.onProblem(`ignoring ${this.file}: ${problem}; it will be rebuilt`);
    return cache;
  }

  private async update(change: (cache: CacheFile) => void): Promise<void> {
    await this.fs.mkdir(path.dirname(this.file), { recursive: true });
    const unlock = await this.lock();
    try {
      const cache = await this.readFile();
      change(cache);
      for (const [name, entry] of Object.entries(cache.servers)) {
        if (this.expired(entry)) delete cache.servers[name];
      }
      const tmp = `${this.file}.${process.pid}.tmp`;
      try {
        await this.fs.writeFile(tmp, `${JSON.stringify(cache)}\n`, { mode: 0o600 });
        await this.fs.rename(tmp, this.file);
      } catch (error) {
        await this.fs.rm(tmp, { force: true }).catch(() => {});
        throw error;
      }
      this.snapshot = cache;
    } finally {
      await unlock();
    }
  }

  /** An exclusive lock file beside the cache; a stale one (a crashed writer) is taken over. */
  private async lock(): Promise<() => Promise<void>> {
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const handle = await this.fs.open(lockFile, "wx");
        await handle.close();
        return () => this.fs.rm(lockFile, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const stat = await this.fs.stat(lockFile).catch(() => undefined);
      if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) {
        await this.fs.rm(lockFile, { force: true });
        continue;
      }
      // Past the wait, write anyway: tmp + rename still keeps the file whole.
      if (Date.now() > deadline) return async () => {};
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}
