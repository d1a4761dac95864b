/**
 * `connectServer`: one definition in, one initialized `ServerConnection` out,
 * over SDK v2 when the definition opts into negotiation (`protocol` "auto" or
 * pinned) and SDK v1 otherwise — both through the shared connect path.
 */
import { describeError, packageVersion, type ServerDefinition } from "@pi-mcp-adapter/core";
import { SdkServerConnection } from "../connection/sdk-connection.js";
import {
  type ClientIdentity,
  type ConnectOptions,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ServerConnection,
} from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import { probeHttpShape } from "../http/http-shape-probe.js";
import { isAuthFailure, tlsFailure } from "../http/http-status.js";
import { retryTransientReads } from "../http/read-retry.js";
import { CallWindow } from "../inbound/call-window.js";
import { clientCapabilities, guardClientHandlers } from "../inbound/client-handlers.js";
import { NotificationRelay } from "../inbound/server-notification.js";
import { MODERN_REVISION } from "../protocol/protocol-revision.js";
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, RequestDeadlines } from "../requests/request-deadline.js";
import { StderrBuffer } from "../stdio/stderr-buffer.js";
import { STDERR_SUMMARY_WINDOW, stderrHint } from "../stdio/stderr-summary.js";
import { DEFAULT_TASK_TIMEOUT_MS } from "../task-update.js";
import { connectOver, openClient, type PathContext } from "./connect-path.js";
import { v1Flavor } from "./sdk-v1.js";
import { openOwnProcess, openStdioEndpoint } from "./stdio-endpoint.js";

declare const __PACKAGE_VERSION__: string | undefined;

/** Who connects when the caller names no client: this package, at its own version (see core's `packageVersion`). */
const DEFAULT_CLIENT: ClientIdentity = {
  name: "@pi-mcp-adapter/transport",
  version: packageVersion(
    "@pi-mcp-adapter/transport",
    typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : undefined,
    import.meta.url,
  ),
};

/** Connects and initializes; throws a `TransportError` naming the server on failure. */
export async function connectServer(
  definition: ServerDefinition,
  options: ConnectOptions = {},
  signal?: AbortSignal,
): Promise<ServerConnection> {
  const name = definition.name;
  signal?.throwIfAborted();
  const stderr = new StderrBuffer();
  const timeout = definition.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const identity = options.client ?? DEFAULT_CLIENT;
  const given = typeof options.handlers === "function" ? options.handlers(definition) : options.handlers;
  // What the connection's requests and its server's requests share: the deadlines, the call window.
  const guard = {
    deadlines: new RequestDeadlines({ now: options.now, timers: options.timers }),
    window: new CallWindow(given?.requestsPerCall),
    notifications: new NotificationRelay(),
  };
  const handlers = guardClientHandlers(given, guard);
  // A private CA (caFile) is trusted by this server's own fetch only; its https agent is made only for such servers.
  const serverFetch =
    definition.caFile && definition.url && definition.transport !== "stdio"
      ? await (await import("../http/ca-fetch.js")).caFetch(
          name,
          definition.url,
          definition.caFile,
          options.fetch,
        )
      : options.fetch;
  const ctx: PathContext = {
    definition,
    parts: {
      name,
      stderr,
      defaultTimeoutMs: timeout,
      maxTotalTimeoutMs: definition.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      ...guard,
      now: options.now,
      rootsDeclared: Boolean(handlers?.roots),
      tasks: {
        mode: definition.tasks ?? "auto",
        taskTimeoutMs: definition.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
        handlers,
        clientInfo: identity,
        clientCapabilities: clientCapabilities(handlers),
      },
    },
    timeout,
    signal,
    // Reads that meet a transient HTTP failure are sent again (read-retry.ts); tool calls never are.
    fetch: retryTransientReads(serverFetch, { sleep: options.sleep, now: options.now }),
    authProvider: options.authProvider?.(definition),
    frame: { server: name, maxFrameBytes: options.maxFrameBytes },
    spawn: () => openStdioEndpoint(definition, options, given, stderr),
  };
  const v1 = v1Flavor(identity, name, handlers);
  const modernOptions = {
    identity,
    handlers,
    eraCache: options.eraCache,
    spawnProbe: () => openOwnProcess(definition, options, new StderrBuffer()),
  };
  try {
    if (options.transport) {
      // An injected transport speaks the definition's `protocol` too: legacy over SDK v1,
      // `auto` and pinned over SDK v2, negotiating in place (as on a socket).
      const client =
        definition.protocol === "legacy"
          ? await openClient(v1, options.transport, ctx)
          : await (await import("./modern-connect.js")).openModernOver(ctx, modernOptions, options.transport);
      return new SdkServerConnection({ ...ctx.parts, client, via: "custom" });
    }
    if (definition.protocol !== "legacy") {
      // SDK v2 loads only for servers that opt into negotiation: importing this package stays cheap.
      const { connectModern } = await import("./modern-connect.js");
      const modern = await connectModern(ctx, modernOptions);
      if (modern) return modern;
    }
    // v1 serves legacy SSE, so its path always ends in a connection or an error.
    return (await connectOver(v1, ctx)) as ServerConnection;
  } catch (error) {
    if (error instanceof TransportError) throw error;
    throw await connectFailure(definition, error, stderr, { ...options, fetch: serverFetch });
  }
}

/** A `TransportError` for a failed connect, with the most useful hint we can find. */
async function connectFailure(
  definition: ServerDefinition,
  error: unknown,
  stderr: StderrBuffer,
  options: ConnectOptions,
): Promise<TransportError> {
  const name = definition.name;
  let hint = "";
  const tls = tlsFailure(error);
  if ((error as { code?: unknown }).code === "ERA_NEGOTIATION_FAILED") {
    hint = ` (it does not offer ${MODERN_REVISION}; set "protocol": "auto" or "legacy")`;
  } else if (tls) {
    const fix = definition.caFile
      ? `; its certificate does not chain to the CAs in caFile "${definition.caFile}"`
      : '; for a server behind a private CA, set "caFile" to the CA\'s PEM bundle';
    hint = ` (TLS: ${tls}${fix})`;
  } else if (
    !options.transport &&
    definition.url &&
    (definition.transport === "http" || definition.transport === "sse") &&
    !isAuthFailure(error)
  ) {
    const shape = await probeHttpShape(definition.url, {
      headers: definition.headers,
      fetch: options.fetch,
    }).catch(() => undefined);
    if (shape) hint = ` (${shape})`;
  }
  return new TransportError(
    isAuthFailure(error) ? "needs_auth" : "connect_failed",
    name,
    `Could not connect to MCP server "${name}": ${describeError(error)}${hint}${stderrHint(stderr.tail(STDERR_SUMMARY_WINDOW))}`,
    { cause: error },
  );
}
