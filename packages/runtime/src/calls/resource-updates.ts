/**
 * Resources read in this session, and whether the server said one changed
 * since (`resources/updated`). The first read of a URI subscribes to it when
 * the server supports subscriptions (again after a reconnect); a later read of a URI the server
 * reported updated says so, so the model knows an earlier answer is stale.
 * Memory only: nothing is kept past the session, and nothing is re-read on
 * its own.
 */
import type { ServerConnection } from "@pi-mcp-adapter/transport";

export class ResourceUpdates {
  /** `server\0uri` of every resource read: whether an update arrived since, and the connection subscribed on. */
  private readonly reads = new Map<string, { updated: boolean; via: ServerConnection | undefined }>();

  /**
   * Notes a read of `uri` on `server`; subscribes on its first read (when the
   * server offers subscriptions). Returns true when the server reported the
   * resource updated since the previous read.
   */
  noteRead(server: string, uri: string, connection: ServerConnection | undefined): boolean {
    const key = `${server}\u0000${uri}`;
    const seen = this.reads.get(key);
    this.reads.set(key, { updated: false, via: connection });
    // Subscriptions end with their connection: a reconnected server is asked again.
    if (connection && seen?.via !== connection) {
      // A subscription that fails costs only the "changed" note, never the read.
      void connection.subscribeResource(uri).catch(() => {});
    }
    return seen?.updated === true;
  }

  /** A `resources/updated` from `server`: marks the URI if this session read it. */
  updated(server: string, uri: string): void {
    const entry = this.reads.get(`${server}\u0000${uri}`);
    if (entry) entry.updated = true;
  }

  /** Whether this session read the URI (so its read subscription should stay). */
  wasRead(server: string, uri: string): boolean {
    return this.reads.has(`${server}\u0000${uri}`);
  }

  /** Whether the URI changed since this session last read it (without noting a read). */
  isStale(server: string, uri: string): boolean {
    return this.reads.get(`${server}\u0000${uri}`)?.updated === true;
  }
}
