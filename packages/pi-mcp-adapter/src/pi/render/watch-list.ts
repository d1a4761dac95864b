/**
 * The session's resource watches as hosts show them (`/mcp-adapter watch`
 * without arguments, the panel): one line per watch with its update count.
 */
/** What a line shows of a watch (`runtime.watches.list()` gives them). */
interface WatchRow {
  server: string;
  uri: string;
  /** Updates heard since the watch began. */
  updates: number;
  /** Why the last (re)subscription failed, while it has not succeeded since. */
  error?: string;
}

/** One line for a watch: `server · uri — 2 updates` (and why re-subscribing failed, if it did). */
export function watchLine(watch: WatchRow): string {
  const updates =
    watch.updates === 0 ? "no updates yet" : `${watch.updates} update${watch.updates === 1 ? "" : "s"}`;
  return `${watch.server} · ${watch.uri} — ${updates}${watch.error ? ` (subscription failed: ${watch.error})` : ""}`;
}

/** Every watch, or how to start one when there are none. */
export function formatWatches(watches: readonly WatchRow[]): string {
  if (!watches.length) return "No resources watched. Start with /mcp-adapter watch <server> <uri>.";
  return [`Watched resources (${watches.length}):`, ...watches.map((w) => `  ${watchLine(w)}`)].join("\n");
}
