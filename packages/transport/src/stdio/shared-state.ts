/**
 * What status says about sharing a stdio server's process with other
 * sessions: how many sessions use the shared process now, or why this
 * session runs its own although sharing was asked for.
 */

/** `{ sessions }` while shared through the daemon (this session included); `{ reason }` when sharing fell back. */
export type SharedState = { sessions: number } | { reason: string };

/** How a connection reads the sharing of its stdio transport (absent: sharing was not asked for). */
export interface SharedSource {
  shared(): SharedState;
  /**
   * Set when the connection ended because the shared-server daemon went away
   * rather than the server: no fault of the server, so the next use
   * reconnects at once (through a new daemon) without a failure backoff.
   */
  readonly daemonLost?: boolean;
}
