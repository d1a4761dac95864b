/**
 * The runtime's tool catalog: per server, the metadata search and describe
 * use (tools, and resources, resource templates and prompts of servers that
 * offer them). A server's listing comes from memory, else from the disk cache (when
 * it was saved under the same definition hash and has not expired — no
 * connection needed), else from a live connection, which is then cached
 * (its tools whenever they came; declared lists that did not come are noted
 * in it, see server-listing.ts). A new listing replaces the old one whole,
 * only once it is complete.
 * Per-server `searchKeywords` are gathered here for search only; they never
 * reach the cache or the metadata. A listing over the catalog's bounds is
 * refused and remembered: not fetched again until the server's definition
 * changes or it is reconnected.
 */
import type { MetadataCache, ServerListing } from "@pi-mcp-adapter/catalog";
import { definitionHash } from "@pi-mcp-adapter/config";
import {
  isAppOnly,
  type ServerDefinition,
  type ToolMetadata,
  type ToolPrefixMode,
} from "@pi-mcp-adapter/core";
import type { SearchKeywords, ServerContext } from "@pi-mcp-adapter/search";
import { currentUntil } from "./listing-freshness.js";
import { type ListingSource, listServer } from "./server-listing.js";
import { metadataToolsKey, sharedServerMetadata } from "./shared-metadata.js";

export type { ListingSource } from "./server-listing.js";

export interface ToolCatalogOptions {
  /** The disk cache; without one, every session lists servers afresh. */
  cache?: MetadataCache;
  /** True when the caller already loaded `cache`, so the first lookup need not read the file again. */
  cacheLoaded?: boolean;
  /** Default prefix mode (`settings.toolPrefix`); a server's own `toolPrefix` wins. */
  toolPrefix?: ToolPrefixMode;
  /** Told of listed entries left out (no name, listed twice); each message names the server. */
  onWarning?: (message: string) => void;
  /** The session's clock (a listing's `ttlMs`, listing-freshness.ts); default the real one. */
  now?: () => number;
}

export class ToolCatalog {
  private readonly listings = new Map<string, ServerListing>();
  private readonly metadataByServer = new Map<string, ToolMetadata[]>();
  private readonly pending = new Map<string, Promise<void>>();
  /**
   * Servers whose live listing was over the catalog's bounds, with that error: not listed
   * (nor downloaded) again until their definition changes (`forget`) or a reconnect (`refresh`).
   */
  private readonly refused = new Map<string, unknown>();
  /** Servers whose listing this session came from the server itself (not the disk cache), and until when it is current. */
  private readonly live = new Map<string, number>();
  private loaded: Promise<void> | undefined;
  private version = 0;
  private keywords: { key: string; value: SearchKeywords } | undefined;
  private listed: { key: string; version: number; tools: ToolMetadata[] } | undefined;
  /** Each array `list` gave, with the servers' metadata it was made of (for `toolsKey`). */
  private readonly listedFrom = new WeakMap<readonly ToolMetadata[], (ToolMetadata[] | undefined)[]>();
  private context: { key: string; version: number; value: ServerContext } | undefined;

  constructor(
    private readonly options: ToolCatalogOptions,
    private readonly definition: (name: string) => ServerDefinition | undefined,
    private readonly connect: (name: string) => Promise<ListingSource>,
    /** Every configured server's name (disabled ones too), for un-doubled tool names. */
    private readonly serverNames: () => readonly string[] = () => [],
  ) {}

  /** Metadata of a server known so far (memory or cache), without connecting. */
  metadata(name: string): ToolMetadata[] | undefined {
    return this.metadataByServer.get(name);
  }

  /**
   * The metadata of these servers as the model sees it, as one array: app-only
   * tools (MCP Apps `_meta.ui.visibility: ["app"]`) left out. The same array
   * comes back until a listing changes, so search reuses its index between queries.
   */
  list(names: readonly string[]): ToolMetadata[] {
    const key = names.join("\u0000");
    if (this.listed?.key !== key || this.listed.version !== this.version) {
      const metadata = names.map((n) => this.metadataByServer.get(n));
      this.listed = { key, version: this.version, tools: searchableTools(metadata) };
      this.listedFrom.set(this.listed.tools, metadata);
    }
    return this.listed.tools;
  }

  /**
   * A name for exactly the tools of an array `list` gave (shared-metadata.ts's `metadataToolsKey`), for the
   * kept search index; `undefined` for another array, or where a listing's hash is not known.
   */
  toolsKey(tools: readonly ToolMetadata[]): string | undefined {
    const metadata = this.listedFrom.get(tools);
    return metadata && metadataToolsKey(metadata);
  }

  /** True when the server's listing in memory came from the server this session (not the disk cache). */
  listedLive(name: string): boolean {
    return this.live.has(name);
  }

  /** A live listing past its `ttlMs` (listing-freshness.ts): listed again at its next use. */
  outdated(name: string): boolean {
    const until = this.live.get(name);
    return (
      until !== undefined && until !== Number.POSITIVE_INFINITY && until <= (this.options.now ?? Date.now)()
    );
  }

  /** The server's last listing (live or cached) as it came: its prompts, resources and templates too. */
  listing(name: string): ServerListing | undefined {
    return this.listings.get(name);
  }

  /** The server's instructions from its last listing (live or cached). */
  instructions(name: string): string | undefined {
    return this.listings.get(name)?.instructions;
  }

  /**
   * What a status line tells of a server from its last listing, never
   * connecting: tool, resource and prompt counts (all undefined while it is
   * not listed), its instructions, the declared lists it lacks and the skill
   * entries it listed that were refused.
   */
  summary(name: string) {
    const metadata = this.metadataByServer.get(name);
    const listing = this.listings.get(name);
    const count = (kind: ToolMetadata["kind"]) => metadata?.filter((m) => m.kind === kind).length;
    return {
      toolCount: count("tool"),
      ...(metadata ? { resourceCount: count("resource"), promptCount: count("prompt") } : {}),
      instructions: listing?.instructions,
      ...(listing?.skipped ? { skippedLists: listing.skipped } : {}),
      ...(listing?.refusedSkills ? { refusedSkills: listing.refusedSkills } : {}),
    };
  }

  /** Makes sure a server's metadata is known: memory, then disk cache, then a live listing. */
  ensure(name: string): Promise<void> {
    const outdated = this.outdated(name);
    if (this.metadataByServer.has(name) && !outdated) return Promise.resolve();
    let pending = this.pending.get(name);
    if (!pending) {
      pending = (outdated ? this.listLive(name) : this.fill(name)).finally(() => this.pending.delete(name));
      this.pending.set(name, pending);
    }
    return pending;
  }

  /** Forgets what is known of a server (its definition changed or it was removed). */
  forget(name: string): void {
    this.refused.delete(name);
    if (!this.metadataByServer.delete(name) && !this.listings.delete(name)) return;
    this.listings.delete(name);
    this.keywords = undefined;
    this.version++;
  }

  /** Whether a server's first listing is under way. */
  listingInFlight(name: string): boolean {
    return this.pending.has(name);
  }

  /**
   * Lists a server live again (after a reconnect or a list-changed
   * notification). The old listing stays in use until the new one is
   * complete and then is swapped in at once; when listing fails, the old one
   * stays and the error is thrown.
   */
  async refresh(name: string): Promise<void> {
    this.refused.delete(name);
    await this.listLive(name);
  }

  /** `searchKeywords` of every configured server, keyed by server name (the same object while names stay). */
  searchKeywords(names: readonly string[]): SearchKeywords {
    const key = names.join("\u0000");
    if (this.keywords?.key !== key) {
      this.keywords = { key, value: keywordsByServer(names.map((n) => this.definition(n))) };
    }
    return this.keywords.value;
  }

  /**
   * What each of these servers says about itself (from its last listing, live or cached), for search's
   * `serverContext`: the same object until a listing changes.
   */
  serverContext(names: readonly string[]): ServerContext {
    const key = names.join("\u0000");
    if (this.context?.key !== key || this.context.version !== this.version) {
      this.context = {
        key,
        version: this.version,
        value: contextByServer(names.map((name) => [name, this.listings.get(name)])),
      };
    }
    return this.context.value;
  }

  /** Fills a server's metadata from the disk cache only (never connects); false when the cache has none. */
  async fromCache(name: string): Promise<boolean> {
    if (this.metadataByServer.has(name)) return true;
    const cache = this.options.cache;
    const definition = this.definition(name);
    if (!cache || !definition) return false;
    this.loaded ??= this.options.cacheLoaded ? Promise.resolve() : cache.load();
    await this.loaded;
    const listing = cache.get(name, definitionHash(definition));
    if (listing) {
      this.set(name, listing);
      this.live.delete(name);
    }
    return listing !== undefined;
  }

  private async fill(name: string): Promise<void> {
    if (this.refused.has(name)) throw this.refused.get(name);
    if (!(await this.fromCache(name))) await this.listLive(name);
  }

  private async listLive(name: string): Promise<void> {
    const source = await this.connect(name);
    const listing = await listServer(source);
    try {
      this.set(name, listing);
    } catch (error) {
      if ((error as { code?: unknown }).code === "catalog_too_large") this.refused.set(name, error);
      throw error;
    }
    // Timed from the answer, as the SDK's own response cache is (a re-listing then finds it expired too).
    this.live.set(name, currentUntil(source, (this.options.now ?? Date.now)()));
    const definition = this.definition(name);
    // Cached with its skipped lists noted (server-listing.ts); a cache that cannot be written only
    // costs the next session a connection.
    const cache = this.options.cache;
    if (cache && definition) await cache.put(name, definitionHash(definition), listing).catch(() => {});
  }

  /** Throws (nothing kept) for a listing over the catalog's bounds. */
  private set(name: string, listing: ServerListing): void {
    const definition = this.definition(name);
    const metadata = sharedServerMetadata(name, listing, {
      toolPrefix: definition?.toolPrefix ?? this.options.toolPrefix,
      serverNames: this.serverNames(),
      includeTools: definition?.includeTools,
      excludeTools: definition?.excludeTools,
      ...(this.options.onWarning ? { onWarning: this.options.onWarning } : {}),
    });
    this.listings.set(name, listing);
    this.version++;
    this.metadataByServer.set(name, metadata);
  }
}

/** The tools of these servers' metadata that search and the model see: app-only tools (MCP Apps) left out. */
export function searchableTools(metadata: readonly (readonly ToolMetadata[] | undefined)[]): ToolMetadata[] {
  return metadata.flatMap((tools) => tools ?? []).filter((t) => !isAppOnly(t.ui));
}

/** The `searchKeywords` of these servers, by server name (a server without any is left out). */
export function keywordsByServer(
  servers: readonly (Pick<ServerDefinition, "name" | "searchKeywords"> | undefined)[],
): SearchKeywords {
  const out: Record<string, Record<string, readonly string[]>> = {};
  for (const server of servers) if (server?.searchKeywords) out[server.name] = server.searchKeywords;
  return out;
}

/**
 * Per server, what it says about itself: its `serverInfo` title and description and its instructions, one
 * text (search reads its start only). A server that said nothing, or is not listed, is left out.
 */
export function contextByServer(
  listings: readonly (readonly [string, Pick<ServerListing, "serverInfo" | "instructions"> | undefined])[],
): ServerContext {
  const out: Record<string, string> = Object.create(null);
  for (const [name, listing] of listings) {
    const { title, description } = listing?.serverInfo ?? {};
    const text = [title, description, listing?.instructions].filter(Boolean).join("\n");
    if (text) out[name] = text;
  }
  return out;
}
