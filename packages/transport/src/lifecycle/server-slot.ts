/**
 * What `ConnectionManager` holds per server: its definition and lifecycle
 * policy, the connection (or connect in flight), the last failure and when
 * it may be tried again, the generation that guards against stale connects,
 * and its timers; and how a success or failure changes it (the failure backoff).
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import type { ServerConnection } from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import {
  type FailureBackoffOptions,
  failureWindow,
  type LifecyclePolicy,
  lifecyclePolicy,
} from "./lifecycle-policy.js";

export interface ServerSlot<D extends ServerDefinition = ServerDefinition> {
  definition: D;
  policy: LifecyclePolicy;
  /** Bumped by every drop; a connect that finishes under an older generation is stale. */
  generation: number;
  connection?: ServerConnection;
  pending?: Promise<ServerConnection>;
  /** The connection is opening a new session after the server lost its old one. */
  renewing?: boolean;
  /** Aborts the connect in flight (on reconnect or shutdown). */
  abort?: AbortController;
  error?: string;
  needsAuth?: boolean;
  failedAt?: number;
  /** Resident after first use (lazy-keep-alive) or from start (keep-alive). */
  resident: boolean;
  /** Reconnect attempts since the last success (the backoff step). */
  attempt: number;
  /** Connects that failed in a row since the last success (a lost connection is not counted). */
  failures: number;
  /** Before this time (ms since epoch) a server that failed to start is not started by use; see `FailureBackoffOptions`. */
  retryAt?: number;
  idleTimer?: unknown;
  healthTimer?: unknown;
  reconnectTimer?: unknown;
  /** How long the last successful connect took (ms), spawn and `initialize` included. */
  connectMs?: number;
  /** The last status event sent, so an unchanged status is not sent twice. */
  lastEmitted?: string;
}

export type SlotTimer = "idleTimer" | "healthTimer" | "reconnectTimer";

export function newSlot<D extends ServerDefinition>(
  definition: D,
  defaultIdleTimeoutMin: number | undefined,
): ServerSlot<D> {
  const policy = lifecyclePolicy(definition, defaultIdleTimeoutMin);
  return { definition, policy, generation: 0, resident: false, attempt: 0, failures: 0 };
}

/** The slot takes `definition` afresh: new policy, no failure, no residency, backoff from the start. */
export function resetSlot<D extends ServerDefinition>(
  slot: ServerSlot<D>,
  definition: D,
  defaultIdleTimeoutMin: number | undefined,
): void {
  slot.definition = definition;
  slot.policy = lifecyclePolicy(definition, defaultIdleTimeoutMin);
  slot.resident = false;
  slot.attempt = 0;
  slot.failures = 0;
  slot.retryAt = undefined;
  slot.error = undefined;
  slot.needsAuth = undefined;
  slot.failedAt = undefined;
  slot.connectMs = undefined;
}

/** A connect succeeded after `connectMs`: no failure, no backoff. */
export function markConnected(slot: ServerSlot, connectMs: number): void {
  slot.connectMs = connectMs;
  slot.error = undefined;
  slot.needsAuth = undefined;
  slot.failedAt = undefined;
  slot.attempt = 0;
  slot.failures = 0;
  slot.retryAt = undefined;
}

/**
 * Records a failure (its `error` and `needsAuth` already set): use leaves the
 * server alone until its failure window ends, except one that needs a login
 * (the login is what changes).
 */
export function markFailed(slot: ServerSlot, now: number, backoff: FailureBackoffOptions | undefined): void {
  slot.failedAt = now;
  slot.failures++;
  slot.retryAt = slot.needsAuth ? undefined : now + failureWindow(slot.failures, backoff);
}

/**
 * Records that a connection that was up was lost (its `error` already set):
 * shown as failed, but not held back — the next use starts it again, and
 * only a failure of that start opens the backoff window.
 */
export function markLost(slot: ServerSlot, now: number): void {
  slot.failedAt = now;
  slot.retryAt = undefined;
}

/** The refusal of a use within the slot's failure backoff, if it is in it. */
export function backoffRefusal(slot: ServerSlot, now: number): TransportError | undefined {
  if (slot.pending || !slot.error || slot.retryAt === undefined || now >= slot.retryAt) return undefined;
  const name = slot.definition.name;
  return new TransportError(
    "unavailable",
    name,
    unavailableMessage(name, slot.error, now - (slot.failedAt ?? now), slot.retryAt - now),
  );
}

/**
 * What a use of a server in its failure backoff is told:
 * `server "x" is unavailable (last failed 12 s ago: <reason>); next try in 18 s, or reconnect "x" to try now`.
 */
function unavailableMessage(name: string, error: string, failedAgoMs: number, retryInMs: number): string {
  return (
    `server "${name}" is unavailable (last failed ${Math.max(0, Math.round(failedAgoMs / 1000))} s ago: ${error}); ` +
    `next try in ${Math.max(1, Math.ceil(retryInMs / 1000))} s, or reconnect "${name}" to try now`
  );
}
