/**
 * Protocol `auto` and pinned `"2026-07-28"` over SDK v2
 * (`@modelcontextprotocol/client`), behind the same `ServerConnection`.
 *
 * - stdio `auto` probes `server/discover` on a short-lived sibling process, so
 *   a legacy server that dies on the unknown request never costs the real
 *   session; the verdict is cached per server for this process.
 * - sockets and HTTP probe in place; HTTP falls back to the classic path
 *   (and from there to legacy SSE) only on a definitive 404/405/406/415.
 * - pinned `"2026-07-28"` never falls back.
 */
import {
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2StreamableHttp,
} from "@modelcontextprotocol/client";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import type { FetchLike } from "./http-shape-probe.js";
import type { ProcessTransport } from "./process-transport.js";
import type { ProtocolClient } from "./protocol-client.js";
import { type EraCache, MODERN_REVISION } from "./protocol-revision.js";
import { type SdkConnectionParts, SdkServerConnection } from "./sdk-connection.js";
import type { ServerConnection } from "./server-connection.js";
import { SocketTransport } from "./socket-transport.js";

const MAX_PROBE_TIMEOUT_MS = 10_000;
const DEFINITIVE_REJECTIONS = new Set([404, 405, 406, 415]);

const sharedEraCache: EraCache = new Map();

export interface ModernContext {
  identity: { name: string; version: string };
  parts: Omit<SdkConnectionParts, "client" | "via">;
  timeout: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
  /** An SDK OAuth provider; the v1 and v2 clients accept the same object. */
  authProvider?: unknown;
  eraCache?: EraCache;
  /** Spawns the server (the session process, or a sibling for the probe). */
  spawnProcess: (forProbe: boolean) => Promise<ProcessTransport>;
}

/** Output schemas are checked by `SdkServerConnection` for both SDKs alike. */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/**
 * A connection on SDK v2, or `undefined` when `auto` found a legacy server
 * and the caller should connect the classic way.
 */
export async function connectModern(
  definition: ServerDefinition,
  ctx: ModernContext,
): Promise<ServerConnection | undefined> {
  const pinned = definition.protocol === MODERN_REVISION;
  const probe = { timeoutMs: Math.min(ctx.timeout, MAX_PROBE_TIMEOUT_MS) };
  const newClient = (mode: "auto" | { pin: string }) =>
    new V2Client(ctx.identity, {
      capabilities: {},
      versionNegotiation: { mode, probe },
      jsonSchemaValidator: NO_OUTPUT_VALIDATION,
    });
  const mode = pinned ? { pin: MODERN_REVISION } : ("auto" as const);
  const connect = async (client: V2Client, transport: unknown, prior?: PriorDiscovery) => {
    const t = transport as Parameters<V2Client["connect"]>[0];
    const abort = () => void t.close().catch(() => {});
    ctx.signal?.addEventListener("abort", abort, { once: true });
    try {
      await client.connect(t, { timeout: ctx.timeout, signal: ctx.signal, ...(prior ? { prior } : {}) });
    } catch (error) {
      await t.close().catch(() => {});
      throw error;
    } finally {
      ctx.signal?.removeEventListener("abort", abort);
    }
  };

  switch (definition.transport) {
    case "stdio": {
      const cache = ctx.eraCache ?? sharedEraCache;
      const key = JSON.stringify([
        definition.name,
        definition.command,
        definition.args ?? [],
        definition.cwd,
      ]);
      let prior = pinned ? undefined : cache.get(key);
      if (!pinned && !prior) {
        prior = await probeOnSibling(ctx, newClient);
        cache.set(key, prior);
      }
      if (prior?.kind === "legacy") return undefined;
      const transport = await ctx.spawnProcess(false);
      const client = newClient(mode);
      await connect(client, transport, prior);
      return new SdkServerConnection({
        ...ctx.parts,
        client: v2ProtocolClient(client),
        via: "stdio",
        pid: transport.pid,
      });
    }
    case "socket": {
      const client = newClient(mode);
      await connect(client, new SocketTransport(definition.socket ?? ""));
      return new SdkServerConnection({ ...ctx.parts, client: v2ProtocolClient(client), via: "socket" });
    }
    case "http": {
      const url = new URL(definition.url ?? "");
      const transport = new V2StreamableHttp(url, {
        requestInit: definition.headers ? { headers: definition.headers } : undefined,
        ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
        ...(ctx.authProvider ? { authProvider: ctx.authProvider as never } : {}),
      });
      const client = newClient(mode);
      try {
        await connect(client, transport);
      } catch (error) {
        const status = httpStatusOf(error);
        if (!pinned && status !== undefined && DEFINITIVE_REJECTIONS.has(status)) return undefined;
        throw error;
      }
      const beforeClose = async () => {
        if (transport.sessionId) await transport.terminateSession();
      };
      return new SdkServerConnection({
        ...ctx.parts,
        client: v2ProtocolClient(client),
        via: "streamable-http",
        beforeClose,
      });
    }
    case "sse":
      if (pinned) {
        throw new TransportError(
          "unsupported_protocol",
          definition.name,
          `Server "${definition.name}": legacy SSE cannot carry protocol ${MODERN_REVISION}; use transport "http"`,
        );
      }
      return undefined;
    default:
      return undefined;
  }
}

async function probeOnSibling(
  ctx: ModernContext,
  newClient: (mode: "auto") => V2Client,
): Promise<PriorDiscovery> {
  let sibling: ProcessTransport | undefined;
  const client = newClient("auto");
  try {
    sibling = await ctx.spawnProcess(true);
    await client.connect(sibling as unknown as Parameters<V2Client["connect"]>[0], {
      timeout: ctx.timeout,
      signal: ctx.signal,
    });
    const discover = client.getDiscoverResult();
    return client.getProtocolEra() === "modern" && discover
      ? { kind: "modern", discover }
      : { kind: "legacy" };
  } catch {
    // A server that exits or errors on the unknown probe is a legacy server;
    // real faults show up again, clearly, when the session process connects.
    return { kind: "legacy" };
  } finally {
    await client.close().catch(() => {});
    await sibling?.close().catch(() => {});
  }
}

function httpStatusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown; code?: unknown } | undefined)?.status;
  if (typeof status === "number") return status;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" && code >= 100 && code < 600 ? code : undefined;
}

export function v2ProtocolClient(client: V2Client): ProtocolClient {
  const cursorParams = (cursor: string | undefined) => (cursor ? { cursor } : undefined);
  return {
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    serverVersion: () => {
      const info = client.getServerVersion();
      return info ? { name: info.name, version: info.version } : undefined;
    },
    instructions: () => client.getInstructions(),
    ping: (o) => client.ping(o),
    listTools: (cursor, o) => client.listTools(cursorParams(cursor), o),
    listResources: (cursor, o) => client.listResources(cursorParams(cursor), o),
    listResourceTemplates: (cursor, o) => client.listResourceTemplates(cursorParams(cursor), o),
    listPrompts: (cursor, o) => client.listPrompts(cursorParams(cursor), o),
    readResource: (uri, o) => client.readResource({ uri }, o),
    getPrompt: (name, args, o) => client.getPrompt({ name, arguments: args }, o),
    callTool: (name, args, o) => client.callTool({ name, arguments: args }, o),
    onClose: (handler) => {
      client.onclose = handler;
    },
    close: () => client.close(),
    classify: (error) => {
      if (error instanceof SdkError) {
        if (error.code === "REQUEST_TIMEOUT") return "timeout";
        if (error.code === "CONNECTION_CLOSED") return "closed";
      }
      if (error instanceof ProtocolError && error.code === -32001) return "timeout";
      return undefined;
    },
  };
}
