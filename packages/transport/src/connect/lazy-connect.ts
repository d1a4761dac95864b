/**
 * `connectServer` as this package exports it: the connect path and both SDK
 * clients (most of this package's code) load on the first connection, so a
 * host that imports the package at start-up and connects lazily does not pay
 * for compiling them.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import type { ConnectOptions, ServerConnection } from "../connection/server-connection.js";

/** Connects and initializes; throws a `TransportError` naming the server on failure. */
export async function connectServer(
  definition: ServerDefinition,
  options: ConnectOptions = {},
  signal?: AbortSignal,
): Promise<ServerConnection> {
  const { connectServer: connect } = await import("./connect-server.js");
  return connect(definition, options, signal);
}
