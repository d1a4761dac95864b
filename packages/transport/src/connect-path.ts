/**
 * The one connect path both SDK adapters share: the transport switch
 * (stdio/socket/http/sse), an abortable connect that closes what it opened on
 * failure, the Streamable HTTP → legacy SSE decision on a definitive
 * rejection, and session termination (DELETE) on close.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import type { FetchLike } from "./http-shape-probe.js";
import type { ProcessTransport } from "./process-transport.js";
import type { ProtocolClient, SdkFlavor } from "./protocol-client.js";
import type { ConnectedVia } from "./remote-types.js";
import { type SdkConnectionParts, SdkServerConnection } from "./sdk-connection.js";
import type { ServerConnection } from "./server-connection.js";
import { tapNotifications } from "./server-notification.js";
import { SocketTransport } from "./socket-transport.js";
import { guardSseResponses } from "./sse-response-guard.js";

/** HTTP statuses that prove the endpoint is not Streamable HTTP (so legacy SSE may be). */
const DEFINITIVE_REJECTIONS = new Set([404, 405, 406, 415]);

export interface PathContext {
  definition: ServerDefinition;
  /** Everything of the connection but the client and how it was reached. */
  parts: Omit<SdkConnectionParts, "client" | "via">;
  timeout: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  authProvider?: unknown;
  /** Spawns the session's stdio process. */
  spawn: () => Promise<ProcessTransport>;
}

/**
 * Connects `flavor` the way the definition says. Resolves `undefined` when an
 * HTTP endpoint definitively rejected Streamable HTTP and the flavor has no
 * SSE of its own (the caller falls back); `strict` makes that rejection an error.
 */
export async function connectOver(
  flavor: SdkFlavor,
  ctx: PathContext,
  strict = false,
): Promise<ServerConnection | undefined> {
  const { definition } = ctx;
  switch (definition.transport) {
    case "stdio": {
      const transport = await ctx.spawn();
      const client = await openClient(flavor, transport, ctx);
      return connection(ctx, client, "stdio", { pid: transport.pid });
    }
    case "socket": {
      if (!definition.socket) throw missing(definition.name, "socket");
      const client = await openClient(flavor, new SocketTransport(definition.socket), ctx);
      return connection(ctx, client, "socket");
    }
    case "http":
    case "sse": {
      const url = parseUrl(definition);
      const base = {
        requestInit: definition.headers ? { headers: definition.headers } : undefined,
        ...(ctx.authProvider ? { authProvider: ctx.authProvider } : {}),
      };
      const connectSse = async () => {
        if (!flavor.sse) return undefined;
        const transport = flavor.sse(url, { ...base, ...(ctx.fetch ? { fetch: ctx.fetch } : {}) });
        return connection(ctx, await openClient(flavor, transport, ctx), "sse");
      };
      if (definition.transport === "sse") return connectSse();
      // Streamable HTTP gets a fetch that ends a cut SSE answer at once instead of at the timeout.
      const transport = flavor.streamableHttp(url, { ...base, fetch: guardSseResponses(ctx.fetch) });
      let client: ProtocolClient;
      try {
        client = await openClient(flavor, transport, ctx);
      } catch (error) {
        if (strict || !isDefinitiveRejection(error)) throw error;
        return connectSse();
      }
      const beforeClose = async () => {
        if (transport.sessionId) await transport.terminateSession();
      };
      return connection(ctx, client, "streamable-http", { beforeClose });
    }
    default:
      throw new TransportError(
        "unsupported_transport",
        definition.name,
        `Server "${definition.name}": transport "${definition.transport}" is not supported`,
      );
  }
}

/**
 * Connects a fresh client over `transport`. Server notifications are read off
 * the transport first; aborting (shutdown, reconnect) closes the transport,
 * which ends a pending initialize at once; a failed connect closes it too.
 */
export async function openClient(flavor: SdkFlavor, transport: Transport, ctx: PathContext) {
  tapNotifications(transport, ctx.parts.notifications);
  const abort = () => void transport.close().catch(() => {});
  ctx.signal?.addEventListener("abort", abort, { once: true });
  try {
    return await flavor.open(transport, { timeout: ctx.timeout, signal: ctx.signal });
  } catch (error) {
    await transport.close().catch(() => {});
    throw error;
  } finally {
    ctx.signal?.removeEventListener("abort", abort);
  }
}

function connection(
  ctx: PathContext,
  client: ProtocolClient,
  via: ConnectedVia,
  extra: Pick<SdkConnectionParts, "pid" | "beforeClose"> = {},
): ServerConnection {
  return new SdkServerConnection({ ...ctx.parts, ...extra, client, via });
}

function parseUrl(definition: ServerDefinition): URL {
  if (!definition.url) throw missing(definition.name, "url");
  try {
    return new URL(definition.url);
  } catch {
    throw new TransportError(
      "connect_failed",
      definition.name,
      `Server "${definition.name}": url "${definition.url}" is not a valid URL`,
    );
  }
}

export function missing(name: string, field: string): TransportError {
  return new TransportError("connect_failed", name, `Server "${name}" has no ${field}`);
}

/** The HTTP status behind an SDK v1 or v2 transport error, if there is one. */
export function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) return error.code;
  const e = error as { status?: unknown; code?: unknown } | undefined;
  if (typeof e?.status === "number") return e.status;
  // JSON-RPC codes are negative; only a number in the HTTP range is a status.
  return typeof e?.code === "number" && e.code >= 100 && e.code < 600 ? e.code : undefined;
}

export function isDefinitiveRejection(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && DEFINITIVE_REJECTIONS.has(status);
}

export function isAuthFailure(error: unknown): boolean {
  const status = httpStatus(error);
  return status === 401 || status === 403 || (error as Error | undefined)?.name === "UnauthorizedError";
}
