/**
 * The one connect path both SDK adapters share: the transport switch
 * (stdio/socket/http/sse), an abortable connect that closes what it opened on
 * failure, the Streamable HTTP → legacy SSE decision on a definitive
 * rejection, and session termination (DELETE) on close.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { type SdkConnectionParts, SdkServerConnection } from "../connection/sdk-connection.js";
import type { ServerConnection } from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import type { FetchLike } from "../http/http-shape-probe.js";
import { isDefinitiveRejection } from "../http/http-status.js";
import { guardSseResponses } from "../http/sse-response-guard.js";
import { tapNotifications } from "../inbound/server-notification.js";
import type { ProtocolClient, SdkFlavor } from "../protocol/protocol-client.js";
import { type OpenSession, RenewableSession } from "../protocol/session-renewal.js";
import type { ConnectedVia } from "../remote-types.js";
import type { FrameOptions } from "../stdio/line-framed-transport.js";
import { SocketTransport } from "../stdio/socket-transport.js";
import type { StdioEndpoint } from "./stdio-endpoint.js";

export interface PathContext {
  definition: ServerDefinition;
  /** Everything of the connection but the client and how it was reached. */
  parts: Omit<SdkConnectionParts, "client" | "via">;
  timeout: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  authProvider?: unknown;
  /** The bound on one stdio or socket message, and the server name its error gives. */
  frame: FrameOptions;
  /** The stdio server's transport: the session's own process, or the daemon's shared one. */
  spawn: () => Promise<StdioEndpoint>;
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
      const { transport, sharing } = await ctx.spawn();
      const client = await openClient(flavor, transport, ctx);
      return connection(ctx, client, "stdio", { pid: transport.pid, ...(sharing ? { sharing } : {}) });
    }
    case "socket": {
      if (!definition.socket) throw missing(definition.name, "socket");
      const client = await openClient(flavor, new SocketTransport(definition.socket, ctx.frame), ctx);
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
      const http = { ...base, fetch: guardSseResponses(ctx.fetch) };
      const open = async (signal?: AbortSignal) => {
        const transport = flavor.streamableHttp(url, http);
        return { transport, client: await openClient(flavor, transport, { ...ctx, signal }) };
      };
      let first: OpenSession;
      try {
        first = await open(ctx.signal);
      } catch (error) {
        if (strict || !isDefinitiveRejection(error)) throw error;
        return connectSse();
      }
      // A server that restarts loses its sessions; the connection opens a new one (session-renewal.ts).
      const session = new RenewableSession(definition.name, first, () => open());
      return connection(ctx, session.client, "streamable-http", {
        beforeClose: () => session.terminate(),
        session,
      });
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
  extra: Pick<SdkConnectionParts, "pid" | "beforeClose" | "session" | "sharing"> = {},
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
