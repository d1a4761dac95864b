/**
 * What `ConnectionManager` holds per server: its definition and lifecycle
 * policy, the connection (or connect in flight), the last failure, the
 * generation that guards against stale connects, and its three timers.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { type LifecyclePolicy, lifecyclePolicy } from "./lifecycle-policy.js";
import type { ServerConnection } from "./server-connection.js";

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
  idleTimer?: unknown;
  healthTimer?: unknown;
  reconnectTimer?: unknown;
  /** The last status event sent, so an unchanged status is not sent twice. */
  lastEmitted?: string;
}

export type SlotTimer = "idleTimer" | "healthTimer" | "reconnectTimer";

export function newSlot<D extends ServerDefinition>(
  definition: D,
  defaultIdleTimeoutMin: number | undefined,
): ServerSlot<D> {
  const policy = lifecyclePolicy(definition, defaultIdleTimeoutMin);
  return { definition, policy, generation: 0, resident: false, attempt: 0 };
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
  slot.error = undefined;
  slot.needsAuth = undefined;
  slot.failedAt = undefined;
}
