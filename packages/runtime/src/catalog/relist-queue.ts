/**
 * Coalesces bursts of "list changed" into few listings: per server at most
 * one listing runs and at most one waits behind it. A notification that
 * arrives while a listing runs only marks the server for one more listing
 * after it (the running one may have started before the change), so a flood
 * of notifications costs two listings, not one per notification.
 */
export class RelistQueue {
  private readonly running = new Map<string, Promise<void>>();
  private readonly queued = new Set<string>();

  /** `list` lists `server` again (it may reject: the failure is its own to report). */
  constructor(private readonly list: (server: string) => Promise<void>) {}

  /** Asks for one more listing of `server`; resolves when the listings asked for so far have run. */
  request(server: string): Promise<void> {
    const running = this.running.get(server);
    if (running) {
      this.queued.add(server);
      return running;
    }
    const run = this.run(server);
    this.running.set(server, run);
    return run;
  }

  /** Resolves once no listing runs or waits. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all(this.running.values());
  }

  private async run(server: string): Promise<void> {
    try {
      do {
        this.queued.delete(server);
        await this.list(server).catch(() => {});
      } while (this.queued.has(server));
    } finally {
      this.running.delete(server);
    }
  }
}
