/**
 * Owns the connections of a set of servers: connects each on first use (one
 * attempt at a time per server), remembers failures for status, and closes
 * everything on shutdown.
 */
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import { type ConnectOptions, connectServer, type ServerConnection } from "./server-connection.js";

export type ConnectionState = "not-connected" | "connecting" | "connected" | "failed" | "disabled";

export interface ServerStatus {
  name: string;
  state: ConnectionState;
  /** Why the last connect failed, when `state` is `failed`. */
  error?: string;
  /** When the last failure happened (ms since epoch). */
  failedAt?: number;
}

export interface ConnectionManagerOptions extends Omit<ConnectOptions, "transport"> {
  /** Replaces `connectServer`, e.g. to connect fixtures in memory. */
  connect?: (definition: ServerDefinition) => Promise<ServerConnection>;
  now?: () => number;
}

interface Slot {
  definition: ServerDefinition;
  connection?: ServerConnection;
  pending?: Promise<ServerConnection>;
  error?: string;
  failedAt?: number;
}

export class ConnectionManager {
  private readonly slots = new Map<string, Slot>();
  private shuttingDown = false;

  constructor(
    servers: ServerDefinition[],
    private readonly options: ConnectionManagerOptions = {},
  ) {
    for (const definition of servers) this.slots.set(definition.name, { definition });
  }

  /** Names of every configured server, disabled ones included. */
  names(): string[] {
    return [...this.slots.keys()];
  }

  definition(name: string): ServerDefinition | undefined {
    return this.slots.get(name)?.definition;
  }

  /** The live connection, connecting first if needed. Concurrent callers share one attempt. */
  async get(name: string): Promise<ServerConnection> {
    const slot = this.slots.get(name);
    if (!slot) {
      const known = this.names().join(", ") || "none";
      throw new TransportError("unknown_server", name, `Unknown MCP server "${name}" (configured: ${known})`);
    }
    if (slot.definition.disabled) {
      throw new TransportError("server_disabled", name, `MCP server "${name}" is disabled`);
    }
    if (this.shuttingDown) throw new TransportError("closed", name, `MCP adapter is shutting down`);
    if (slot.connection && !slot.connection.closed) return slot.connection;
    slot.connection = undefined;
    slot.pending ??= this.open(slot);
    return slot.pending;
  }

  private async open(slot: Slot): Promise<ServerConnection> {
    const connect = this.options.connect ?? ((definition) => connectServer(definition, this.options));
    try {
      const connection = await connect(slot.definition);
      if (this.shuttingDown) {
        await connection.close();
        throw new TransportError("closed", slot.definition.name, "MCP adapter is shutting down");
      }
      slot.connection = connection;
      slot.error = undefined;
      slot.failedAt = undefined;
      return connection;
    } catch (error) {
      slot.error = describeError(error);
      slot.failedAt = (this.options.now ?? Date.now)();
      throw error;
    } finally {
      slot.pending = undefined;
    }
  }

  status(): ServerStatus[] {
    return [...this.slots.values()].map((slot) => {
      const name = slot.definition.name;
      if (slot.definition.disabled) return { name, state: "disabled" };
      if (slot.pending) return { name, state: "connecting" };
      if (slot.connection && !slot.connection.closed) return { name, state: "connected" };
      if (slot.error) return { name, state: "failed", error: slot.error, failedAt: slot.failedAt };
      return { name, state: "not-connected" };
    });
  }

  /** Closes every connection (waiting for ones still connecting). Safe to call twice. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    const closing = [...this.slots.values()].map(async (slot) => {
      const connection = slot.connection ?? (await slot.pending?.catch(() => undefined));
      slot.connection = undefined;
      await connection?.close().catch(() => {});
    });
    await Promise.all(closing);
  }
}
