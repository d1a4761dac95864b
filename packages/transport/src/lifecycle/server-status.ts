/**
 * A server's status as `ConnectionManager` reports it, derived from its slot
 * alone: disabled, then connecting, connected, the last failure (and when it
 * may be tried again), and cached or not connected.
 */

import type { SharedState } from "../stdio/shared-state.js";
import type { ServerSlot } from "./server-slot.js";

export type ConnectionState =
  | "not-connected"
  | "connecting"
  | "connected"
  | "cached"
  | "failed"
  | "needs-auth"
  | "disabled";

export interface ServerStatus {
  name: string;
  state: ConnectionState;
  /** Why the last connect failed (or the connection was lost), when `state` is `failed` or `needs-auth`. */
  error?: string;
  /** When the last failure happened (ms since epoch). */
  failedAt?: number;
  /** Milliseconds since the last failure, at the time the status was taken. */
  failedAgoMs?: number;
  /**
   * When a failed server may be started again (ms since epoch): by use, or by
   * its own reconnect timer when resident. Absent when it may be tried now.
   */
  retryAt?: number;
  /** Set on the last event of a server that `replace` dropped from the list. */
  removed?: true;
  /** Set when the server's definition asks for a sandbox (`sandbox`); it never runs without one. */
  sandboxed?: true;
  /**
   * While connected, for a stdio server asked to be shared: how many sessions
   * share its process (this one included), or why it runs unshared.
   */
  shared?: SharedState;
  /** While connected: how long its connect took (ms), spawn and `initialize` included. */
  connectMs?: number;
}

export type StatusListener = (status: ServerStatus) => void;

export function slotStatus(
  slot: ServerSlot,
  now: () => number,
  hasCachedMetadata: ((name: string) => boolean) | undefined,
): ServerStatus {
  const status = connectionStatus(slot, now, hasCachedMetadata);
  const shared = status.state === "connected" ? slot.connection?.shared : undefined;
  return {
    ...status,
    ...(slot.definition.sandbox ? { sandboxed: true } : {}),
    ...(shared ? { shared } : {}),
    ...(status.state === "connected" && slot.connectMs !== undefined ? { connectMs: slot.connectMs } : {}),
  };
}

function connectionStatus(
  slot: ServerSlot,
  now: () => number,
  hasCachedMetadata: ((name: string) => boolean) | undefined,
): ServerStatus {
  const name = slot.definition.name;
  if (slot.definition.disabled) return { name, state: "disabled" };
  if (slot.pending || slot.renewing) return { name, state: "connecting" };
  if (slot.connection && !slot.connection.closed) return { name, state: "connected" };
  if (slot.error) {
    const failedAt = slot.failedAt ?? now();
    const state = slot.needsAuth ? "needs-auth" : "failed";
    const status: ServerStatus = { name, state, error: slot.error, failedAt, failedAgoMs: now() - failedAt };
    if (slot.retryAt !== undefined && slot.retryAt > now()) status.retryAt = slot.retryAt;
    return status;
  }
  if (hasCachedMetadata?.(name)) return { name, state: "cached" };
  return { name, state: "not-connected" };
}

/** What makes two statuses the same event: a repeat of the last one is not sent. */
export function statusEventKey(status: ServerStatus): string {
  return `${status.state}|${status.error ?? ""}|${status.removed ?? ""}`;
}
