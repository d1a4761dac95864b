/**
 * The listing lifecycle of a runtime's servers: first listings (discovering
 * servers not listed yet, at most four at once), listing again after a
 * list-changed notification (bursts coalesced, the old listing in use until
 * the new one is complete) or a reconnect, forgetting a server whose
 * definition changed; listeners hear of each. The status summaries (a
 * server's status plus what is listed of it) are read here too. Questions
 * asked of the listings (search, resolve, prompts…) are in catalog-questions.ts.
 *
 * One slow server never holds up the others: a view across servers waits
 * only for first listings it starts itself, and not for those of them that
 * are late once the others answered (straggler-wait.ts), not for one an
 * earlier question started (that server is "still connecting"), nor for a
 * server whose connect is under way (its cached listing serves, if any), nor
 * for a failed server's retry (which runs in the background); and a call by
 * exact name resolves as soon as the server that has it is listed.
 */
import type { ServerListing } from "@pi-mcp-adapter/catalog";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { ReplaceReport } from "@pi-mcp-adapter/transport";
import type { ServerSummary } from "../observability/status-events.js";
import type { SessionTrace } from "../observability/trace-observer.js";
import { tracedListing } from "../observability/trace-sources.js";
import type { ServerSet } from "../servers/server-set.js";
import { KeepAliveRelist, type KeepAliveRelistTerms } from "./keep-alive-relist.js";
import { RelistQueue } from "./relist-queue.js";
import { runLimited } from "./run-limited.js";
import { type StragglerTerms, StragglerWait } from "./straggler-wait.js";
import { ToolCatalog, type ToolCatalogOptions } from "./tool-catalog.js";
import {
  prefixes,
  retrying,
  stillConnecting,
  type UnavailableServer,
  unavailableEntry,
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

/**
 * Options of the listings; `stragglerWait`: how long a view across servers waits for late first listings
 * (tests shorten it); `now`: the session's clock that wait is measured on; `keepAliveRelist`: how often
 * keep-alive servers are listed again (keep-alive-relist.ts).
 */
export type ListingsOptions = ToolCatalogOptions & {
  stragglerWait?: StragglerTerms;
  now?: () => number;
  keepAliveRelist?: KeepAliveRelistTerms;
};

const LIST_CHANGED = new Set(["tools/list_changed", "prompts/list_changed", "resources/list_changed"]);

export class Listings {
  /** What is listed of each server (memory, metadata cache); the questions read it. */
  readonly tools: ToolCatalog;
  /** Listings after list-changed notifications: one running and at most one waiting per server. */
  private readonly relists: RelistQueue;
  private readonly toolPrefix: ToolCatalogOptions["toolPrefix"];
  private readonly listeners = new Set<ListingListener>();
  private readonly stragglerWait: StragglerTerms;
  private readonly schedule: KeepAliveRelist;

  constructor(
    private readonly servers: ServerSet,
    options: ListingsOptions,
    private readonly trace?: SessionTrace,
    /** Where a failed re-listing is reported (the old listing stays in use). */
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.toolPrefix = options.toolPrefix;
    this.stragglerWait = { now: options.now, ...options.stragglerWait };
    this.tools = new ToolCatalog(
      options,
      (name) => servers.definition(name),
      (name) => servers.get(name),
      () => servers.names(),
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
    // Keep-alive servers list again on a schedule too: some change their tools without saying so.
    this.schedule = new KeepAliveRelist(
      servers,
      (server) => {
        if (this.tools.metadata(server)) void this.relists.request(server);
      },
      options.keepAliveRelist,
    );
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
    // A live listing past its `ttlMs` is listed again in the background (listing-freshness.ts): the
    // current one serves this view (a call never waits for a re-listing); the next use sees the new one.
    for (const name of enabled) if (this.tools.outdated(name)) this.relistOutdated(name);
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

  /** Every server's status plus what is known without connecting (counts, source, instructions, running tasks). */
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

  /** What a `replace` changed: edited and removed servers are forgotten; listeners hear of every change. Returns `report`. */
  applied(report: ReplaceReport): ReplaceReport {
    for (const name of [...report.removed, ...report.redefined]) this.tools.forget(name);
    for (const name of [...report.removed, ...report.redefined, ...report.toggled])
      this.listed(name, "config");
    return report;
  }

  /** Lists a server live again after a reconnect (also how a user refreshes its cached tools); a failure keeps the old listing. */
  async relist(name: string): Promise<void> {
    await this.tools.refresh(name);
    this.listed(name, "reconnect");
  }

  /** Resolves once relistings after list-changed notifications landed, and listeners ran (hosts await it before a model request). */
  settled(): Promise<void> {
    return this.relists.settled();
  }

  /** Hears each listing (re)load or config change of a server, with the reason; returns the unsubscribe. */
  onChange(listener: ListingListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.schedule.stop();
    this.listeners.clear();
  }

  /** How `server`'s tools are prefixed (its own setting, else the session's). */
  prefixMode(server: string) {
    return this.servers.definition(server)?.toolPrefix ?? this.toolPrefix ?? "server";
  }

  /** A listing past its `ttlMs`, listed again in the background unless that is under way. */
  private relistOutdated(name: string): void {
    if (!this.tools.listingInFlight(name)) this.discover(name).catch(() => {}); // the old listing serves
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
