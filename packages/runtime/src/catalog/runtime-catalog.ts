/**
 * What the runtime knows of its servers' tools, resources and prompts, and
 * the questions asked of it: the catalog view (discovering servers not
 * listed yet, at most four at once), search, name resolution, instructions,
 * prompts, completions, the direct-tool plan and the status summaries.
 * Listings follow the server set: a list-changed notification lists a
 * server again (bursts coalesced, the old listing in use until the new one
 * is complete), a changed definition forgets it; listeners hear of both.
 *
 * One slow server never holds up the others: a question across servers
 * waits only for first listings it starts itself, and not for those of them
 * that are late once the others answered (straggler-wait.ts), not for one an earlier
 * question started (that server is "still connecting"), nor for a server
 * whose connect is under way (its cached listing serves, if any), nor for a
 * failed server's retry (which runs in the background); and a call by exact
 * name resolves as soon as the server that has it is listed.
 */
import type { ServerListing } from "@pi-mcp-adapter/catalog";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { ambiguityMessage, type RankResult, resolveToolName, searchTools } from "@pi-mcp-adapter/search";
import type { CompletionRequest, CompletionResult, ReplaceReport } from "@pi-mcp-adapter/transport";
import { RuntimeError } from "../errors.js";
import type { ServerSummary } from "../observability/status-events.js";
import type { SessionTrace } from "../observability/trace-observer.js";
import { tracedListing } from "../observability/trace-sources.js";
import type { ServerSet } from "../servers/server-set.js";
import { type AutoDirect, decideAutoDirect } from "./auto-direct-tools.js";
import { type DirectToolPlan, type DirectToolSettings, planDirectTools } from "./direct-tools.js";
import { type PromptEntry, promptEntries } from "./prompt-catalog.js";
import { RelistQueue } from "./relist-queue.js";
import { runLimited } from "./run-limited.js";
import { SearchIndexStore, searchIndexFileBeside } from "./search-index-store.js";
import { type StragglerTerms, StragglerWait } from "./straggler-wait.js";
import { ToolCatalog, type ToolCatalogOptions } from "./tool-catalog.js";
import { findByPrefixedName } from "./tool-name-index.js";
import {
  ownerOf,
  prefixes,
  retrying,
  stillConnecting,
  type UnavailableServer,
  unavailableEntry,
  unavailableMessage,
} from "./unavailable-servers.js";

/** At most this many servers are discovered at once. */
export const MAX_PARALLEL_DISCOVERY = 4;

/**
 * Why a server's listing changed: a list-changed notification, an explicit
 * reconnect (`/mcp-adapter reconnect`, `mcp({ connect })`), its first live or
 * cached listing this session, or a config change (edited, enabled, disabled).
 */
export type ListingChangeReason = "list_changed" | "reconnect" | "listed" | "config";
export type ListingListener = (server: string, reason: ListingChangeReason) => void;

export interface CatalogView {
  tools: ToolMetadata[];
  /** Servers whose tools could not be listed (or are not listed yet), with the reason. */
  unavailable: UnavailableServer[];
}

export interface SearchOptions {
  server?: string;
  limit?: number;
  offset?: number;
  regex?: boolean;
}

export type SearchResult = RankResult & Pick<CatalogView, "unavailable">;

const LIST_CHANGED = new Set(["tools/list_changed", "prompts/list_changed", "resources/list_changed"]);

export class RuntimeCatalog {
  private readonly tools: ToolCatalog;
  /** Search indexes of tool lists, the whole catalog's kept on disk beside the metadata cache. */
  private readonly indexes: SearchIndexStore;
  /** Listings after list-changed notifications: one running and at most one waiting per server. */
  private readonly relists: RelistQueue;
  private readonly toolPrefix: ToolCatalogOptions["toolPrefix"];
  private readonly listeners = new Set<ListingListener>();
  /** The direct-tool settings of the config as last loaded (`reload` may change them). */
  direct: DirectToolSettings;
  /** The session's `directTools: "auto"` decision: given at start-up, else made by the first plan that needs one. */
  private autoDirect: AutoDirect | undefined;
  private readonly stragglerWait: StragglerTerms | undefined;

  constructor(
    private readonly servers: ServerSet,
    /** `stragglerWait`: how long a question across servers waits for late first listings (tests shorten it). */
    options: ToolCatalogOptions & {
      direct?: DirectToolSettings;
      autoDirect?: AutoDirect;
      stragglerWait?: StragglerTerms;
    },
    private readonly trace?: SessionTrace,
    /** Where a failed re-listing is reported (the old listing stays in use). */
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.direct = options.direct ?? {};
    this.toolPrefix = options.toolPrefix;
    this.autoDirect = options.autoDirect;
    this.stragglerWait = options.stragglerWait;
    this.indexes = new SearchIndexStore(options.cache && searchIndexFileBeside(options.cache.file));
    this.tools = new ToolCatalog(
      options,
      (name) => servers.definition(name),
      (name) => servers.get(name),
    );
    this.relists = new RelistQueue(async (server) => {
      // A server whose connection went away since it said so is not started again for that:
      // the old list stays until a call connects it, and it says again what changed.
      if (!servers.connection(server)) return;
      try {
        await this.tools.refresh(server);
      } catch (error) {
        if (this.servers.closing) return; // the session's own shutdown cut it short: nothing to tell
        this.warn(
          `MCP server "${server}" said its tools changed, but listing them again failed (${unavailableEntry(server, error).error}); the previous list stays in use.`,
        );
        return;
      }
      this.listed(server, "list_changed");
    });
    // A server whose tools, prompts or resources changed is listed again, if this session listed it
    // at all; a change during its first listing, once that has landed (it may predate the change).
    servers.onNotification((server, notification) => {
      if (!LIST_CHANGED.has(notification.kind)) return;
      if (this.tools.metadata(server)) void this.relists.request(server);
      else if (this.tools.listingInFlight(server))
        this.tools.ensure(server).then(
          () => this.relists.request(server),
          () => {},
        );
    });
  }

  /**
   * Tool metadata of every enabled server (or one), discovering servers not
   * listed yet. Across servers, only first listings this view starts are
   * waited for (see the module comment), and servers `target` names (by tool
   * prefix) always are; `found` ends the wait early once it holds for the
   * tools listed so far (discovery goes on in the background).
   */
  async view(
    server?: string,
    found?: (tools: ToolMetadata[]) => boolean,
    target?: string,
  ): Promise<CatalogView> {
    const names = server ? [server] : this.servers.names();
    const enabled = names.filter((name) => !this.servers.require(name).disabled);
    const unavailable: UnavailableServer[] = [];
    // Only servers not listed yet need the async round (every call resolves through here).
    const unlisted = enabled.filter((name) => this.tools.metadata(name) === undefined);
    if (unlisted.length === 0) return { tools: this.tools.list(enabled), unavailable };
    const named = (name: string) => target !== undefined && prefixes(target, name, this.prefixMode(name));
    const plan = unlisted.map((name) => ({
      name,
      approach: server || named(name) ? ("wait" as const) : this.approach(name, unavailable),
    }));
    const awaited = plan.filter((p) => p.approach === "wait").map((p) => p.name);
    const fromCache = plan.filter((p) => p.approach === "cache").map((p) => p.name);
    await Promise.all(fromCache.map((name) => this.cachedOrLater(name, unavailable)));
    if (found?.(this.tools.list(enabled))) return { tools: this.tools.list(enabled), unavailable };
    let done: () => void = () => {};
    const early = new Promise<void>((resolve) => {
      done = resolve;
    });
    // A question across servers stops waiting for late first listings (see straggler-wait.ts);
    // a call by name waits for the server it names, and for the others only while they keep up.
    const needed = server === undefined ? awaited.filter(named) : awaited;
    const timed = awaited.filter((name) => !needed.includes(name));
    const late = new StragglerWait({ timed, needed }, done, this.stragglerWait);
    const discovery = runLimited(awaited, MAX_PARALLEL_DISCOVERY, async (name) => {
      late.start(name);
      try {
        await this.discover(name);
        if (found?.(this.tools.list(enabled))) done();
      } catch (error) {
        unavailable.push(unavailableEntry(name, error));
      } finally {
        late.settle(name);
      }
    });
    await Promise.race([discovery, early]);
    late.stop();
    for (const name of late.pending()) unavailable.push(stillConnecting(name));
    return { tools: this.tools.list(enabled), unavailable: [...unavailable] };
  }

  /** The server's tools known so far: memory, else the disk cache (announced as a listing); never connects. */
  async known(server: string): Promise<readonly ToolMetadata[] | undefined> {
    if (!this.tools.metadata(server) && (await this.tools.fromCache(server).catch(() => false))) {
      this.listed(server, "listed");
    }
    return this.tools.metadata(server);
  }

  /** The server's last listing as it came (live or cached), if it was listed this session. */
  listing(server: string): ServerListing | undefined {
    return this.tools.listing(server);
  }

  /** True when the server's listing came from the server this session, not the disk cache. */
  listedLive(server: string): boolean {
    return this.tools.listedLive(server);
  }

  /** Every listed entry of `server`, app-only tools included (what MCP Apps may call). */
  async fullListing(server: string): Promise<readonly ToolMetadata[]> {
    await this.view(server);
    return this.tools.metadata(server) ?? [];
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const view = await this.view(options.server);
    const searchKeywords = this.tools.searchKeywords(this.servers.names());
    // A regex scans the tools as listed; ranked search needs the index (kept on disk for the whole catalog).
    const tools = options.regex
      ? view.tools
      : await this.indexes.indexOf(view.tools, searchKeywords, options.server === undefined);
    const result = await searchTools(query, tools, { ...options, searchKeywords });
    return { ...result, unavailable: view.unavailable };
  }

  /** A server's instructions (from its live or cached listing), if it sent any. */
  async instructions(server: string): Promise<string | undefined> {
    const failure = (await this.view(server)).unavailable[0];
    if (failure) throw new RuntimeError("server_unavailable", unavailableMessage(failure));
    return this.tools.instructions(server);
  }

  /**
   * The tool a (possibly misspelled) name refers to; throws with suggestions
   * when none matches, or why when the name is of a server that is unavailable.
   */
  async resolve(name: string, server?: string): Promise<ToolMetadata> {
    // Without a server, the exact prefixed name is the common case; a map saves scanning every
    // tool, and the wait ends as soon as the server that has it is listed.
    const exactIn = (tools: ToolMetadata[]) => findByPrefixedName(tools, name) !== undefined;
    const view = await this.view(server, server === undefined ? exactIn : undefined, name);
    const exact = server === undefined ? findByPrefixedName(view.tools, name) : undefined;
    if (exact) return exact;
    const resolved = resolveToolName(name, view.tools, server);
    if ("match" in resolved) return resolved.match;
    if ("ambiguous" in resolved)
      throw new RuntimeError("ambiguous_tool", ambiguityMessage(name, resolved.ambiguous));
    const owner = ownerOf(name, server, view.unavailable, (s) => this.prefixMode(s));
    if (owner) throw new RuntimeError("server_unavailable", unavailableMessage(owner));
    const hint = resolved.suggestions.length
      ? ` Did you mean: ${resolved.suggestions.map((t) => t.prefixedName).join(", ")}?`
      : "";
    const missing = view.unavailable.length
      ? ` (unavailable: ${view.unavailable.map((u) => `${u.server}: ${u.error}`).join("; ")})`
      : "";
    const stale = await this.servers.changedConfigNote();
    throw new RuntimeError("unknown_tool", `No MCP tool named "${name}".${hint}${missing}${stale}`);
  }

  /** Prompts of every enabled server (or one), listing servers not listed yet. */
  async prompts(
    server?: string,
  ): Promise<{ prompts: PromptEntry[]; unavailable: CatalogView["unavailable"] }> {
    const view = await this.view(server);
    const names = server ? [server] : this.servers.names();
    return { prompts: names.flatMap((name) => this.knownPrompts(name)), unavailable: view.unavailable };
  }

  /** A server's prompts as far as they are known (live or cached listing), without connecting. */
  knownPrompts(server: string): PromptEntry[] {
    if (this.servers.definition(server)?.disabled) return [];
    return promptEntries(server, this.tools.listing(server), this.tools.metadata(server));
  }

  /** `completion/complete` on `server` (connecting it); no values when it is disabled. */
  async complete(
    server: string,
    request: CompletionRequest,
    signal?: AbortSignal,
  ): Promise<CompletionResult> {
    if (this.servers.require(server).disabled) return { values: [] };
    return (await this.servers.get(server)).complete(request, { signal });
  }

  /** Every server's status plus what is known without connecting (counts, source, instructions). */
  summaries(): ServerSummary[] {
    return this.servers.status().map((status) => {
      const tasks = this.servers.tasks.of(status.name);
      return {
        ...status,
        ...this.tools.summary(status.name),
        source: this.servers.definition(status.name)?.source.file ?? "",
        ...(tasks.length ? { tasks } : {}),
      };
    });
  }

  /**
   * The direct tools of every server whose metadata is known (memory,
   * cache, or `known` — e.g. the startup snapshot's); nothing connects.
   */
  directTools(
    reserved: Iterable<string>,
    known?: (server: string) => readonly ToolMetadata[] | undefined,
  ): DirectToolPlan {
    const servers = this.servers.names().map((name) => ({
      definition: this.servers.require(name),
      metadata: this.tools.metadata(name) ?? known?.(name),
    }));
    this.autoDirect ??= decideAutoDirect(servers, this.direct);
    return planDirectTools(servers, this.direct, reserved, this.autoDirect);
  }

  /** What a `replace` changed: edited and removed servers are forgotten; listeners hear of every change. */
  applied(report: ReplaceReport): void {
    for (const name of [...report.removed, ...report.redefined]) this.tools.forget(name);
    for (const name of [...report.removed, ...report.redefined, ...report.toggled])
      this.listed(name, "config");
  }

  /** Lists a server live again after a reconnect (also how a user refreshes its cached tools); a failure keeps the old listing. */
  async relist(name: string): Promise<void> {
    await this.tools.refresh(name);
    this.listed(name, "reconnect");
  }

  /** Resolves once the listings that list-changed notifications started have landed (and listeners ran). */
  settled(): Promise<void> {
    return this.relists.settled();
  }

  /** See `AdapterRuntime.onListingChange`. */
  onListingChange(listener: ListingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
  }

  /** Settles once the search index due to be kept on disk is written (or could not be). */
  indexSaved(): Promise<void> {
    return this.indexes.saved();
  }

  /** A first listing of `server` (from the cache when it can); listeners hear of it. */
  private async discover(name: string): Promise<void> {
    await tracedListing(this.trace, name, () => this.tools.ensure(name));
    this.listed(name, "listed");
  }

  /**
   * How a view across servers treats `name`'s first listing: waits for it
   * (`wait`), or not when an earlier question's listing of it is under way,
   * when it failed and its backoff is over (tried again in the background),
   * or when it is connecting already (an eager server starting: `cache`, its
   * cached listing if there is one, else it is listed in the background) —
   * `unavailable` then says so. A server in its backoff is waited for: the
   * cache may still serve it, else it is refused at once.
   */
  private approach(name: string, unavailable: UnavailableServer[]): "wait" | "cache" | "skip" {
    if (this.tools.listingInFlight(name)) {
      unavailable.push(stillConnecting(name));
      return "skip";
    }
    const status = this.servers.status().find((s) => s.name === name);
    if (status?.state === "connecting") return "cache";
    if (status?.state !== "failed" || status.retryAt !== undefined) return "wait";
    unavailable.push(retrying(status));
    this.discover(name).catch(() => {}); // its status says how the retry went
    return "skip";
  }

  /** The cached listing of a server that is connecting, else its live listing in the background. */
  private async cachedOrLater(name: string, unavailable: UnavailableServer[]): Promise<void> {
    if (await this.tools.fromCache(name)) return this.listed(name, "listed");
    unavailable.push(stillConnecting(name));
    this.discover(name).catch(() => {}); // its status says how it went
  }

  private prefixMode(server: string) {
    return this.servers.definition(server)?.toolPrefix ?? this.toolPrefix ?? "server";
  }

  private listed(server: string, reason: ListingChangeReason): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(server, reason);
      } catch {
        // a listener's bug must not break listing
      }
    }
  }
}
