/**
 * Tool pinning in a session (`settings.pinTools`). Every listing a server
 * gives (first listing, reconnect, list_changed, or the disk cache) is
 * compared with the server's pins in the metadata cache: the first listing
 * pins every tool, later ones report changed and new tools (a notice for
 * each distinct set, rate-limited per server by pin-notices.ts). The call pipeline asks `noticeFor` before approval;
 * accepting (the dialog, `trust-tools`) writes the current fingerprints as
 * the pins. Without a disk cache the pins live in memory for the session.
 * A listing read from the disk cache was compared when it was listed live;
 * it is compared again once the host is free (`whenFree`):
 * a session's first search loads every cached listing and needs none of
 * this. Whatever asks about changes, fingerprints or pins compares first.
 */
import {
  acceptToolChanges,
  compareToolPins,
  type MetadataCache,
  type ServerListing,
  type ServerPins,
  serverIdentity,
  type ToolChange,
  toolFingerprint,
} from "@pi-mcp-adapter/catalog";
import type { PinToolsSetting, RemoteTool, ServerDefinition } from "@pi-mcp-adapter/core";
import type { ServerToolChanges } from "../format/tool-changes.js";
import { nextFreeTurn } from "../host.js";
import { PinNotices, type PinNoticeTiming } from "./pin-notices.js";

export type PinMode = "enforce" | "warn" | "off";

export function pinMode(setting: PinToolsSetting | undefined): PinMode {
  if (setting === false) return "off";
  return setting === "warn" ? "warn" : "enforce";
}

interface Observed {
  identity: string;
  tools: readonly RemoteTool[];
  changes: ToolChange[];
  /** The changes last told in a notice, so a relisting with the same changes stays quiet. */
  told: string;
}

export class ToolPins {
  readonly mode: PinMode;
  private readonly observed = new Map<string, Observed>();
  /** Servers listed live by `verifyOnce` this session. */
  private readonly verified = new Set<string>();
  /** Pins when there is no disk cache. */
  private readonly memory = new Map<string, ServerPins>();
  private readonly writes = new Set<Promise<void>>();
  /** Pin changes waiting for the next write, per server. */
  private readonly queued = new Map<string, (pins: ServerPins | undefined) => ServerPins>();
  /** The write that will take the queued changes (not started yet). */
  private batch: Promise<void> | undefined;
  private readonly notices: PinNotices;
  private readonly cache: MetadataCache | undefined;
  private readonly notify: (message: string) => void;
  private readonly list: (server: string) => Promise<unknown>;
  /** Listings read from the disk cache, compared once the host is free (or when asked about first). */
  private readonly later = new Map<string, { definition: ServerDefinition; listing: ServerListing }>();
  private readonly whenFree: (() => Promise<void> | undefined) | undefined;

  /**
   * `settings.pinTools`, the metadata cache the pins live in, and the clock notices are rate-limited on;
   * `list` lists a server not listed yet (what `accept` does first).
   */
  constructor(
    options: {
      calls?: { pinTools?: PinToolsSetting };
      catalog?: { cache?: MetadataCache };
      lifecycle?: PinNoticeTiming;
    },
    notify: (message: string) => void,
    list: (server: string) => Promise<unknown> = async () => {},
    whenFree?: () => Promise<void> | undefined,
  ) {
    this.whenFree = whenFree;
    this.mode = pinMode(options.calls?.pinTools);
    this.cache = options.catalog?.cache;
    this.notify = notify;
    this.list = list;
    this.notices = new PinNotices(notify, this.mode === "enforce", options.lifecycle);
  }

  /**
   * A server's listing arrived: compare, pin what is pinned on first sight, and tell what changed.
   * One read from the disk cache (`cached`) is compared once the host is free (`whenFree`), or as
   * soon as anything asks about pins; without `whenFree`, at once.
   */
  observe(definition: ServerDefinition, listing: ServerListing, cached = false): void {
    if (this.mode === "off") return;
    if (cached && this.whenFree) {
      const first = this.later.size === 0;
      this.later.set(definition.name, { definition, listing });
      if (first) void nextFreeTurn(this.whenFree).then(() => this.compareWaiting());
      return;
    }
    // A newer listing stands for the one waiting (what it would pin, this one pins).
    this.later.delete(definition.name);
    const identity = serverIdentity(definition);
    const { changes, save } = compareToolPins(this.pinsOf(definition.name), identity, listing.tools);
    const previous = this.observed.get(definition.name);
    const told = changes.map((c) => `${c.tool}:${c.kind}:${c.fingerprint}`).join("\n");
    this.observed.set(definition.name, { identity, tools: listing.tools, changes, told });
    // Only what is missing is added: pins on disk (accepted meanwhile, maybe by another process) stand.
    if (save) void this.persist(definition.name, (current) => withMissingPins(current, save));
    if (changes.length && told !== previous?.told) {
      this.notices.changed(definition.name, changes);
    }
  }

  /** Compares the cached listings still waiting (`observe` with `cached`). */
  private compareWaiting(): void {
    for (const { definition, listing } of [...this.later.values()]) this.observe(definition, listing);
  }

  /**
   * Lists `server` live with `relist` once this session (its listing reaches
   * `observe`); a failure is left to the call itself to meet.
   */
  async verifyOnce(server: string, relist: ((server: string) => Promise<void>) | undefined): Promise<void> {
    if (!relist || this.verified.has(server)) return;
    this.verified.add(server);
    await relist(server).catch(() => {});
  }

  /** The change of a tool of `server` as last listed, if it changed or is new. */
  changeOf(server: string, tool: string): ToolChange | undefined {
    this.compareWaiting();
    return this.observed.get(server)?.changes.find((c) => c.tool === tool);
  }

  /** The fingerprint of a tool as last listed (session grants are tied to it). */
  fingerprintOf(server: string, tool: string): string | undefined {
    this.compareWaiting();
    const listed = this.observed.get(server)?.tools.find((t) => t.name === tool);
    // Asked on every call: catalog hashes a listed tool once (a new listing brings new tool objects).
    return listed ? toolFingerprint(listed) : undefined;
  }

  /** Every listed server's changed and new tools. */
  report(): ServerToolChanges[] {
    this.compareWaiting();
    return [...this.observed].map(([server, o]) => ({ server, changes: o.changes }));
  }

  /**
   * Accepts a server's tools as it lists them now (all, or those named), listing it first if needed
   * (`trust-tools`, the panel); rejects when they could not be saved.
   */
  async accept(server: string, tools?: readonly string[]): Promise<void> {
    await this.list(server);
    await this.acceptListed(server, tools);
  }

  /**
   * Accepts a server's tools as last listed (all, or those named): they are pinned as they are now.
   * Rejects (after a notice) when the cache file could not be written: the pins then hold in memory only.
   */
  async acceptListed(server: string, tools?: readonly string[]): Promise<void> {
    this.compareWaiting();
    const observed = this.observed.get(server);
    if (!observed) return;
    const { identity } = observed;
    const accept = (pins: ServerPins | undefined) => acceptToolChanges(pins, identity, observed.tools, tools);
    const next = accept(this.pinsOf(server));
    observed.changes = compareToolPins(next, identity, observed.tools).changes;
    observed.told = "";
    this.notices.accepted(server);
    await this.persist(server, accept).catch((error: unknown) => {
      this.notify(
        `MCP server ${server}: the accepted tools could not be saved (${(error as Error).message}); they hold for this session only`,
      );
      throw error;
    });
  }

  /** Reads pins again from disk (another process may have accepted changes) and compares anew. */
  async reload(): Promise<void> {
    if (!this.cache) return;
    this.compareWaiting();
    await this.settled();
    await this.cache.load();
    for (const [server, o] of this.observed) {
      o.changes = compareToolPins(this.pinsOf(server), o.identity, o.tools).changes;
    }
  }

  /** The session ends: changes not told yet are told now, and pins being written are written. */
  async close(): Promise<void> {
    this.compareWaiting();
    this.notices.close();
    await this.settled();
  }

  /** Resolves once pins being written have been written. */
  async settled(): Promise<void> {
    while (this.writes.size) await Promise.all(this.writes);
  }

  /** A server's pins as they will be once queued changes are written. */
  private pinsOf(server: string): ServerPins | undefined {
    if (!this.cache) return this.memory.get(server);
    const queued = this.queued.get(server);
    const saved = this.cache.pins(server);
    return queued ? queued(saved) : saved;
  }

  /**
   * Queues `change` for the next write of the cache. The promise rejects when that write fails;
   * the listing's own pins ignore that (they are taken again next session), an explicit accept does not.
   */
  private persist(server: string, change: (pins: ServerPins | undefined) => ServerPins): Promise<void> {
    if (!this.cache) {
      this.memory.set(server, change(this.memory.get(server)));
      return Promise.resolve();
    }
    const cache = this.cache;
    // Changes made in one turn (the first listing of many servers) go to disk in one write.
    const queued = this.queued.get(server);
    this.queued.set(server, queued ? (pins) => change(queued(pins)) : change);
    if (this.batch) return this.batch;
    const write = Promise.resolve().then(() => {
      this.batch = undefined;
      const changes = Object.fromEntries(this.queued);
      this.queued.clear();
      return cache.updatePins(changes);
    });
    this.batch = write;
    const settled = write.catch(() => {});
    this.writes.add(settled);
    void settled.finally(() => this.writes.delete(settled));
    return write;
  }
}

function withMissingPins(current: ServerPins | undefined, save: ServerPins): ServerPins {
  if (!current || current.identity !== save.identity) return save;
  return { identity: current.identity, tools: { ...save.tools, ...current.tools } };
}
