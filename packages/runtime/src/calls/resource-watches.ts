/**
 * Resources the user asked to watch (`/mcp-adapter watch <server> <uri>`):
 * `resources/subscribe` where the server declares `resources.subscribe`, and
 * a listener told of each `resources/updated` for a watched URI. The content
 * is never read here: the model reads it when it wants to. Memory only —
 * watches end with the session (unsubscribed at shutdown), and a server
 * that connects again (reconnect, restart, a renewed HTTP session) is
 * subscribed again. A watched lazy server closed for being idle connects
 * again at once: watching it is using it.
 */
import { describeError } from "@pi-mcp-adapter/core";
import type { ServerConnection, ServerStatus } from "@pi-mcp-adapter/transport";
import { RuntimeError } from "../errors.js";
import type { ServerSet } from "../servers/server-set.js";

/** One watch, as listed. */
export interface ResourceWatch {
  server: string;
  uri: string;
  /** Updates heard since the watch began. */
  updates: number;
  /** Why the last (re)subscription failed, while it has not succeeded since. */
  error?: string;
  /** When the last update arrived (ms since epoch). */
  lastUpdateAt?: number;
}

export type WatchUpdateListener = (watch: ResourceWatch) => void;

export class ResourceWatches {
  /** `server\0uri` → the watch. */
  private readonly watches = new Map<string, ResourceWatch>();
  /** The connection each server's watches are subscribed on. */
  private readonly subscribedOn = new Map<string, ServerConnection>();
  private readonly listeners = new Set<WatchUpdateListener>();
  private readonly stops: (() => void)[] = [];

  /**
   * `stillNeeded`: whether a subscription is wanted anyway (a resource the
   * session read keeps its subscription for the "changed since" note), so an
   * unwatch does not unsubscribe it.
   */
  constructor(
    private readonly servers: ServerSet,
    private readonly stillNeeded: (server: string, uri: string) => boolean = () => false,
    private readonly now: () => number = Date.now,
  ) {
    this.stops.push(
      servers.onNotification((server, notification) => {
        if (notification.kind !== "resources/updated") return;
        const watch = this.watches.get(keyOf(server, notification.uri));
        if (!watch) return;
        watch.updates++;
        watch.lastUpdateAt = this.now();
        for (const listener of [...this.listeners]) {
          try {
            listener({ ...watch });
          } catch {
            // a listener's bug must not stop the others
          }
        }
      }),
      servers.onStatus((status) => this.statusChanged(status)),
    );
  }

  /**
   * Subscribes to `uri` on `server` (connecting it). Throws when the server
   * does not offer subscriptions, or the server refuses; watching a URI
   * twice is one watch.
   */
  async watch(server: string, uri: string): Promise<ResourceWatch> {
    this.servers.requireEnabled(server);
    const key = keyOf(server, uri);
    const existing = this.watches.get(key);
    if (existing) return { ...existing };
    const connection = await this.servers.get(server);
    if (!connection.features.resourceSubscribe) {
      throw new RuntimeError(
        "not_supported",
        `MCP server "${server}" does not offer resource subscriptions (resources.subscribe), so its resources cannot be watched`,
      );
    }
    await connection.subscribeResource(uri);
    const watch: ResourceWatch = { server, uri, updates: 0 };
    this.watches.set(key, watch);
    this.subscribedOn.set(server, connection);
    return { ...watch };
  }

  /** Ends a watch (unsubscribing where the server is connected); false when there was none. */
  async unwatch(server: string, uri: string): Promise<boolean> {
    if (!this.watches.delete(keyOf(server, uri))) return false;
    if (this.stillNeeded(server, uri)) return true;
    await this.servers
      .connection(server)
      ?.unsubscribeResource(uri)
      .catch(() => false);
    return true;
  }

  /** Every watch, in the order they began. */
  list(): ResourceWatch[] {
    return [...this.watches.values()].map((w) => ({ ...w }));
  }

  /** Hears each update of a watched resource; returns the unsubscribe. */
  onUpdate(listener: WatchUpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Unsubscribes every watch on connected servers and forgets them (session end). */
  async close(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    const watches = this.list();
    this.watches.clear();
    await Promise.all(
      watches.map((w) =>
        this.servers
          .connection(w.server)
          ?.unsubscribeResource(w.uri)
          .catch(() => false),
      ),
    );
  }

  /** A server that is connected on another connection than its watches were subscribed on is subscribed again. */
  private statusChanged(status: ServerStatus): void {
    const watches = this.list().filter((w) => w.server === status.name);
    if (!watches.length) return;
    if (status.removed || status.state === "disabled") {
      for (const w of watches) this.watches.delete(keyOf(w.server, w.uri));
      return;
    }
    if (status.state === "connecting") {
      // A renewed HTTP session keeps the connection object but not the server's subscriptions.
      this.subscribedOn.delete(status.name);
      return;
    }
    if (status.state === "not-connected" || status.state === "cached") {
      // Closed for being idle: a watch is a use, so the server connects again and its watches with it.
      void this.servers.get(status.name).catch(() => {});
      return;
    }
    if (status.state !== "connected") return;
    const connection = this.servers.connection(status.name);
    if (!connection || this.subscribedOn.get(status.name) === connection) return;
    this.subscribedOn.set(status.name, connection);
    void this.resubscribe(connection, watches);
  }

  private async resubscribe(connection: ServerConnection, watches: ResourceWatch[]): Promise<void> {
    await Promise.all(
      watches.map(async ({ server, uri }) => {
        const watch = this.watches.get(keyOf(server, uri));
        try {
          await connection.subscribeResource(uri);
          if (watch) delete watch.error;
        } catch (error) {
          if (watch) watch.error = describeError(error);
        }
      }),
    );
  }
}

function keyOf(server: string, uri: string): string {
  return `${server}\u0000${uri}`;
}
