/**
 * Owns the connections of a set of servers and their lifecycle: lazy connect
 * (one attempt at a time per server), idle disconnect that never cuts a
 * running request, health checks and reconnect with backoff for resident
 * servers, a failure backoff that keeps use from restarting a server that just
 * failed to start (one that crashed once up starts again on next use), a
 * generation guard against stale connects, status events, server
 * notifications relayed per server, `replace` for a changed server list, and a
 * shutdown that ends every connection. How to connect one server is the
 * caller's `connect`; per-slot timers: slot-timers.ts; status: server-status.ts;
 * the plan of `replace`: replace-plan.ts; events: manager-events.ts.
 */
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import type { ServerConnection } from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import { STDERR_SUMMARY_WINDOW, stderrHint } from "../stdio/stderr-summary.js";
import { REAL_TIMERS, type Timers } from "../timers.js";
import {
  type BackoffOptions,
  DEFAULT_START_TIMEOUT_MS,
  type FailureBackoffOptions,
} from "./lifecycle-policy.js";
import { Emitter, type ManagerEvents } from "./manager-events.js";
import { planReplace, type ReplaceReport, replaceReport } from "./replace-plan.js";
import {
  backoffRefusal,
  markConnected,
  markFailed,
  markLost,
  newSlot,
  resetSlot,
  type ServerSlot,
} from "./server-slot.js";
import { type ServerStatus, slotStatus, statusEventKey } from "./server-status.js";
import { SlotTimers } from "./slot-timers.js";

/** The lifecycle options of a `ConnectionManager`; how to connect is all in `connect`. */
export interface ConnectionManagerOptions<D extends ServerDefinition = ServerDefinition> {
  /**
   * Opens and initializes one server's connection, e.g.
   * `(definition, signal) => connectServer(definition, connectOptions, signal)`.
   * It may throw (a `TransportError` with code `needs_auth` is reported as
   * `needs-auth`); `signal` aborts when the attempt is superseded or shut down.
   */
  connect: (definition: D, signal: AbortSignal) => Promise<ServerConnection>;
  /** Default idle timeout in minutes for lazy servers (settings `idleTimeout`); 0 disables. Default 10. */
  idleTimeoutMin?: number;
  /** Health-check interval of keep-alive servers. Default 30 s. */
  healthIntervalMs?: number;
  /** Bound on `start()`. Default 30 s. */
  startTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** How long use leaves a server that failed to start alone (default 30 s, then 60 s); see `FailureBackoffOptions`. */
  failureBackoff?: FailureBackoffOptions;
  /** Whether tool metadata of a server is cached on disk (reported as `cached` when not connected). */
  hasCachedMetadata?: (name: string) => boolean;
  timers?: Timers;
  /** The clock for failure times and idle checks; give `connect` the same one. Default `Date.now`. */
  now?: () => number;
}

export class ConnectionManager<D extends ServerDefinition = ServerDefinition> {
  private readonly slots = new Map<string, ServerSlot<D>>();
  private readonly events = new Emitter<ManagerEvents>();
  private shuttingDown = false;
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly slotTimers: SlotTimers;

  constructor(
    servers: D[],
    private readonly options: ConnectionManagerOptions<D>,
  ) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.now = options.now ?? Date.now;
    this.slotTimers = new SlotTimers({
      timers: this.timers,
      now: this.now,
      healthIntervalMs: options.healthIntervalMs,
      backoff: options.backoff,
    });
    for (const definition of servers) this.slots.set(definition.name, this.newSlot(definition));
  }

  /** Names of every configured server, disabled ones included. */
  names(): string[] {
    return [...this.slots.keys()];
  }

  definition(name: string): D | undefined {
    return this.slots.get(name)?.definition;
  }

  /** Subscribes to one of the events `ManagerEvents` lists; the returned function unsubscribes. */
  on<K extends keyof ManagerEvents>(event: K, listener: ManagerEvents[K]): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Makes the configured list `servers`: new names are added, missing ones
   * closed and removed, servers whose `definitionKey` or `disabled` changed
   * drop their connection and connect afresh — at once when
   * eager/keep-alive and enabled, else on next use — and the rest keep their
   * connection (a change of provenance alone is not a change; the newest
   * definition is kept). Resolves with what changed; after `shutdown`, with
   * nothing.
   */
  async replace(servers: D[]): Promise<ReplaceReport> {
    if (this.shuttingDown) return { added: [], removed: [], redefined: [], toggled: [] };
    const held = new Map([...this.slots].map(([name, slot]) => [name, slot.definition]));
    const plan = planReplace(held, servers);
    const work: Promise<unknown>[] = [];
    for (const name of plan.removed) {
      const slot = this.slots.get(name) as ServerSlot<D>;
      this.slots.delete(name);
      work.push(this.drop(slot).then(() => this.emit(slot, { removed: true })));
    }
    for (const { kind, definition } of plan.steps) {
      const slot = this.slots.get(definition.name);
      if (!slot) {
        const added = this.newSlot(definition);
        this.slots.set(definition.name, added);
        this.emit(added);
        if (added.policy.connectAtStart && !definition.disabled) {
          work.push(this.get(definition.name).catch(() => undefined));
        }
      } else if (kind === "kept") {
        slot.definition = definition; // same server; keep the newest provenance
      } else {
        work.push(this.redefine(slot, definition));
      }
    }
    await Promise.all(work);
    return replaceReport(plan);
  }

  /** Tells every connected server that the client's roots changed. */
  async notifyRootsChanged(): Promise<void> {
    const open = [...this.slots.values()].flatMap((slot) =>
      slot.connection && !slot.connection.closed ? [slot.connection] : [],
    );
    await Promise.all(open.map((connection) => connection.notifyRootsChanged().catch(() => {})));
  }

  /** The server's open connection, if it has one now; never connects. */
  connection(name: string): ServerConnection | undefined {
    const connection = this.slots.get(name)?.connection;
    return connection && !connection.closed ? connection : undefined;
  }

  /**
   * The live connection, connecting first if needed. Concurrent callers share
   * one attempt. A server that failed to connect is not started again before
   * its failure backoff ends: the call fails at once with code `unavailable`
   * — unless `force` (an explicit reconnect by the user). One that was
   * connected and lost its connection (it crashed) is started again at once.
   */
  async get(name: string, options: { force?: boolean } = {}): Promise<ServerConnection> {
    const slot = this.slotFor(name);
    if (slot.connection && !slot.connection.closed) return slot.connection;
    const refusal = options.force ? undefined : backoffRefusal(slot, this.now());
    if (refusal) throw refusal;
    if (slot.policy.resident) slot.resident = true;
    this.slotTimers.clear(slot, "reconnectTimer");
    slot.connection = undefined;
    if (!slot.pending) {
      slot.pending = this.open(slot, slot.generation);
      this.emit(slot);
    }
    return slot.pending;
  }

  /**
   * Connects every enabled eager/keep-alive server in parallel and resolves
   * when all are settled or `startTimeoutMs` (30 s) has passed, whichever is
   * first. Failures show in `status()`; this never throws.
   */
  async start(): Promise<ServerStatus[]> {
    const starting = [...this.slots.values()]
      .filter((slot) => slot.policy.connectAtStart && !slot.definition.disabled)
      .map((slot) => this.get(slot.definition.name).catch(() => undefined));
    let timer: unknown;
    const bound = new Promise<void>((resolve) => {
      timer = this.timers.setTimeout(resolve, this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    });
    await Promise.race([Promise.all(starting), bound]);
    this.timers.clearTimeout(timer);
    return this.status();
  }

  /** Drops the current connection (and any connect in flight) and connects afresh. */
  async reconnect(name: string): Promise<ServerConnection> {
    const slot = this.slotFor(name);
    await this.drop(slot);
    return this.get(name, { force: true });
  }

  /** Closes a server's connection; it reconnects on next use. */
  async disconnect(name: string): Promise<void> {
    const slot = this.slotFor(name);
    slot.resident = false;
    await this.drop(slot);
    this.emit(slot);
  }

  status(): ServerStatus[] {
    return [...this.slots.values()].map((slot) => this.statusOf(slot));
  }

  /** Closes every connection (waiting for ones still connecting). Safe to call twice. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.slots.values()].map((slot) => this.drop(slot)));
    this.events.clear();
  }

  private async redefine(slot: ServerSlot<D>, definition: D): Promise<void> {
    // drop() invalidates the old connection at once; the new definition is in place before
    // it finishes closing, so a get() meanwhile already connects the new one.
    const dropping = this.drop(slot);
    resetSlot(slot, definition, this.options.idleTimeoutMin);
    await dropping;
    this.emit(slot);
    if (slot.policy.connectAtStart && !definition.disabled && !this.shuttingDown) {
      await this.get(definition.name).catch(() => undefined); // failures show in status()
    }
  }

  private newSlot(definition: D): ServerSlot<D> {
    return newSlot(definition, this.options.idleTimeoutMin);
  }

  private slotFor(name: string): ServerSlot<D> {
    const slot = this.slots.get(name);
    if (!slot) {
      const known = this.names().join(", ") || "none";
      throw new TransportError("unknown_server", name, `Unknown MCP server "${name}" (configured: ${known})`);
    }
    if (slot.definition.disabled) {
      throw new TransportError("server_disabled", name, `MCP server "${name}" is disabled`);
    }
    if (this.shuttingDown) throw new TransportError("closed", name, "MCP adapter is shutting down");
    return slot;
  }

  private async open(slot: ServerSlot<D>, generation: number): Promise<ServerConnection> {
    const name = slot.definition.name;
    const abort = new AbortController();
    slot.abort = abort;
    const started = this.now();
    try {
      const connection = await this.options.connect(slot.definition, abort.signal);
      if (this.shuttingDown || generation !== slot.generation) {
        // A newer reconnect or a shutdown happened meanwhile: this result is stale.
        await connection.close().catch(() => {});
        throw new TransportError("closed", name, `Connection to "${name}" was superseded or shut down`);
      }
      slot.connection = connection;
      markConnected(slot, this.now() - started);
      connection.onClose(() => this.lost(slot, connection, generation));
      connection.onNotification((notification) => this.events.emit("notification", name, notification));
      connection.onSessionRenewal((phase) => {
        if (slot.connection !== connection || generation !== slot.generation) return;
        // While a new session opens the server shows as connecting; a failure closes the connection (see `lost`).
        slot.renewing = phase === "renewing";
        this.emit(slot);
        if (phase === "renewed") this.events.emit("session-renewed", name);
      });
      this.slotTimers.armIdle(slot, connection, () => this.emit(slot));
      this.slotTimers.armHealth(slot, connection);
      return connection;
    } catch (error) {
      if (generation === slot.generation && !this.shuttingDown) {
        slot.error = describeError(error);
        slot.needsAuth = (error as { code?: string }).code === "needs_auth";
        this.failed(slot);
      }
      throw error;
    } finally {
      if (slot.abort === abort) slot.abort = undefined;
      if (generation === slot.generation) {
        slot.pending = undefined;
        this.emit(slot);
      }
    }
  }

  /** The server went away without us closing it (or its shared-server daemon did: then no failure, see `daemonLost`). */
  private lost(slot: ServerSlot<D>, connection: ServerConnection, generation: number): void {
    if (slot.connection !== connection || generation !== slot.generation || this.shuttingDown) return;
    slot.connection = undefined;
    slot.renewing = false;
    this.slotTimers.clear(slot, "idleTimer", "healthTimer");
    if (connection.daemonLost && slot.resident) this.scheduleReconnect(slot);
    else if (!connection.daemonLost) {
      slot.error = `connection lost${stderrHint(connection.stderrTail(STDERR_SUMMARY_WINDOW))}`;
      // It was working: the next use starts it again at once (the backoff is for starts that fail).
      markLost(slot, this.now());
      if (slot.resident) {
        this.scheduleReconnect(slot);
        slot.retryAt = undefined; // its timer brings it back, and a call meanwhile need not wait for it
      }
    }
    this.emit(slot);
  }

  /** Records a failure (see `markFailed`); a resident server retries on its reconnect timer. */
  private failed(slot: ServerSlot<D>): void {
    markFailed(slot, this.now(), this.options.failureBackoff);
    if (slot.resident) this.scheduleReconnect(slot);
  }

  private scheduleReconnect(slot: ServerSlot<D>): void {
    this.slotTimers.scheduleReconnect(slot, () => {
      if (this.shuttingDown) return;
      this.get(slot.definition.name, { force: true }).catch(() => {}); // failure reschedules itself in open()
    });
  }

  /** Closes the slot's connection and invalidates any connect in flight. */
  private async drop(slot: ServerSlot<D>): Promise<void> {
    slot.generation++;
    this.slotTimers.clear(slot, "idleTimer", "healthTimer", "reconnectTimer");
    const pending = slot.pending;
    const connection = slot.connection;
    slot.abort?.abort();
    slot.abort = undefined;
    slot.pending = undefined;
    slot.connection = undefined;
    slot.renewing = false;
    await connection?.close().catch(() => {});
    await pending?.catch(() => undefined); // open() closes stale results itself
  }

  private statusOf(slot: ServerSlot<D>): ServerStatus {
    return slotStatus(slot, this.now, this.options.hasCachedMetadata);
  }

  private emit(slot: ServerSlot<D>, extra: { removed?: true } = {}): void {
    const status = { ...this.statusOf(slot), ...extra };
    const key = statusEventKey(status);
    if (key === slot.lastEmitted) return;
    slot.lastEmitted = key;
    this.events.emit("status", status);
  }
}
