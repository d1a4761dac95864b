/**
 * Protocol `auto` and pinned `"2026-07-28"` over SDK v2
 * (`@modelcontextprotocol/client`), through the shared connect path.
 *
 * - stdio `auto` probes `server/discover` on a short-lived sibling process, so
 *   a legacy server that dies on the unknown request never costs the real
 *   session; the verdict is cached per server for this process.
 * - sockets and HTTP probe in place; HTTP falls back to the classic path
 *   (and from there to legacy SSE) only on a definitive 404/405/406/415.
 * - pinned `"2026-07-28"` never falls back.
 * - a transport the caller injected is probed in place, like a socket.
 * - on 2026-07-28, server→client requests arrive as `input_required` results;
 *   the SDK completes them through the same handlers and retries the call.
 * - on 2026-07-28, list changes come on a `subscriptions/listen` stream,
 *   opened at connect.
 * - on 2026-07-28, the task methods go out below the SDK (raw-request.ts).
 * - on 2026-07-28, a result without `resultType` is complete (result-type-default.ts).
 */
import {
  type McpSubscription,
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2StreamableHttp,
} from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ServerConnection } from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import {
  type ClientHandlers,
  clientCapabilities,
  registerClientHandlers,
} from "../inbound/client-handlers.js";
import {
  ACCEPT_ANY_OUTPUT,
  ANY_RESULT,
  type ProtocolClient,
  type SdkFlavor,
  type SessionTransport,
} from "../protocol/protocol-client.js";
import { protocolClientTable } from "../protocol/protocol-client-table.js";
import { type EraCache, MODERN_REVISION } from "../protocol/protocol-revision.js";
import { RawListenChannel } from "../protocol/raw-listen.js";
import { RawRequestChannel } from "../protocol/raw-request.js";
import { defaultResultTypeToComplete } from "../protocol/result-type-default.js";
import type { ProcessTransport } from "../stdio/process-transport.js";
import { connectOver, openClient, type PathContext } from "./connect-path.js";

const MAX_PROBE_TIMEOUT_MS = 10_000;

const sharedEraCache: EraCache = new Map();

export interface ModernOptions {
  identity: { name: string; version: string };
  handlers?: ClientHandlers;
  eraCache?: EraCache;
  /** Spawns a sibling of the server for the stdio era probe. */
  spawnProbe: () => Promise<ProcessTransport>;
}

type Mode = "auto" | { pin: string };
type V2Transport = Parameters<V2Client["connect"]>[0];

const LIST_CHANGED_OFF = { autoRefresh: false, debounceMs: 0, onChanged: () => {} };

/**
 * A connection on SDK v2, or `undefined` when `auto` found a legacy server
 * and the caller should connect the classic way.
 */
export async function connectModern(
  ctx: PathContext,
  options: ModernOptions,
): Promise<ServerConnection | undefined> {
  const { definition } = ctx;
  const pinned = definition.protocol === MODERN_REVISION;
  const mode: Mode = pinned ? { pin: MODERN_REVISION } : "auto";
  const probeTimeoutMs = Math.min(ctx.timeout, MAX_PROBE_TIMEOUT_MS);
  switch (definition.transport) {
    case "stdio": {
      const cache = options.eraCache ?? sharedEraCache;
      const key = JSON.stringify([
        definition.name,
        definition.command,
        definition.args ?? [],
        definition.cwd,
      ]);
      let prior = pinned ? undefined : cache.get(key);
      if (!pinned && !prior) {
        prior = await probeOnSibling(ctx, options, probeTimeoutMs);
        cache.set(key, prior);
      }
      if (prior?.kind === "legacy") return undefined;
      return connectOver(v2Flavor(definition.name, options, mode, probeTimeoutMs, prior), ctx, pinned);
    }
    case "socket":
    case "http":
      return connectOver(v2Flavor(definition.name, options, mode, probeTimeoutMs), ctx, pinned);
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

/**
 * SDK v2 over a transport the caller made (`ConnectOptions.transport`): `auto`
 * probes `server/discover` in place and falls back to the classic handshake on
 * the same transport; a pinned revision never falls back.
 */
export function openModernOver(
  ctx: PathContext,
  options: ModernOptions,
  transport: Transport,
): Promise<ProtocolClient> {
  const pinned = ctx.definition.protocol === MODERN_REVISION;
  const probeTimeoutMs = Math.min(ctx.timeout, MAX_PROBE_TIMEOUT_MS);
  const mode: Mode = pinned ? { pin: MODERN_REVISION } : "auto";
  return openClient(v2Flavor(ctx.definition.name, options, mode, probeTimeoutMs), transport, ctx);
}

function newClient(options: ModernOptions, server: string, mode: Mode, probeTimeoutMs: number): V2Client {
  const client = new V2Client(options.identity, {
    capabilities: clientCapabilities(options.handlers),
    versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs } },
    jsonSchemaValidator: ACCEPT_ANY_OUTPUT,
    // On 2026-07-28 list changes come only on a `subscriptions/listen` stream, which this
    // opens at connect (for what the server advertises). The notifications are read off the
    // transport like any other; the SDK's own refresh stays off.
    listChanged: { tools: LIST_CHANGED_OFF, prompts: LIST_CHANGED_OFF, resources: LIST_CHANGED_OFF },
  });
  // The same handlers complete `input_required` rounds on 2026-07-28.
  registerClientHandlers(server, options.handlers, (method, handle) =>
    client.setRequestHandler(
      method,
      (request, ctx) => handle(request.params, ctx.mcpReq.signal) as Promise<never>,
    ),
  );
  return client;
}

function v2Flavor(
  server: string,
  options: ModernOptions,
  mode: Mode,
  probeTimeoutMs: number,
  prior?: PriorDiscovery,
): SdkFlavor {
  return {
    async open(transport, o) {
      const client = newClient(options, server, mode, probeTimeoutMs);
      await client.connect(transport as unknown as V2Transport, { ...o, ...(prior ? { prior } : {}) });
      const modern = client.getProtocolEra() === "modern";
      if (modern) defaultResultTypeToComplete(transport);
      // Task methods on 2026-07-28 go below the SDK, whose codec rejects their shapes.
      const raw = modern ? new RawRequestChannel(transport) : undefined;
      const listen = modern ? new RawListenChannel(transport) : undefined;
      return v2ProtocolClient(client, await listenIfSkipped(client, o), raw, listen);
    },
    streamableHttp: (url, http) =>
      new V2StreamableHttp(url, {
        ...http,
        authProvider: http.authProvider as never,
      }) as unknown as SessionTransport,
    // No `sse`: a rejected endpoint goes back to the v1 path, which serves legacy SSE.
  };
}

/**
 * The SDK opens the listen stream itself, except when connecting with a
 * `prior` verdict (our stdio path): then it is opened here, for the list
 * changes the server advertises. Without it, it is simply not there.
 */
async function listenIfSkipped(
  client: V2Client,
  o: { timeout: number; signal?: AbortSignal },
): Promise<McpSubscription | undefined> {
  if (client.getProtocolEra() !== "modern" || client.autoOpenedSubscription) return undefined;
  const capabilities = client.getServerCapabilities() ?? {};
  const filter = {
    ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return undefined;
  return client.listen(filter, o).catch(() => undefined);
}

async function probeOnSibling(
  ctx: PathContext,
  options: ModernOptions,
  probeTimeoutMs: number,
): Promise<PriorDiscovery> {
  let sibling: ProcessTransport | undefined;
  const client = newClient(options, ctx.definition.name, "auto", probeTimeoutMs);
  try {
    sibling = await options.spawnProbe();
    await client.connect(sibling as unknown as V2Transport, { timeout: ctx.timeout, signal: ctx.signal });
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

function v2ProtocolClient(
  client: V2Client,
  subscription: McpSubscription | undefined,
  raw: RawRequestChannel | undefined,
  listen: RawListenChannel | undefined,
): ProtocolClient {
  const table = protocolClientTable(client, {
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    callTool: (params, o) => client.callTool(params, o),
    request: (request, o) => client.request(request as never, ANY_RESULT as never, o),
    close: async () => {
      await subscription?.close().catch(() => {});
      await client.close();
    },
    classify: (error) => {
      if (error instanceof SdkError) {
        if (error.code === "REQUEST_TIMEOUT") return "timeout";
        if (error.code === "CONNECTION_CLOSED") return "closed";
      }
      if (error instanceof ProtocolError && error.code === -32001) return "timeout";
      return undefined;
    },
  });
  return raw ? { ...table, rawRequest: raw.request, ...(listen ? { rawListen: listen.listen } : {}) } : table;
}
