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
 * - on 2026-07-28, server→client requests arrive as `input_required` results;
 *   the SDK completes them through the same handlers and retries the call.
 * - on 2026-07-28, list changes come on a `subscriptions/listen` stream,
 *   opened at connect.
 */
import {
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  type McpSubscription,
  type PriorDiscovery,
  ProtocolError,
  SdkError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2StreamableHttp,
} from "@modelcontextprotocol/client";
import type { CreateMessageParams, ElicitRequestParams } from "@pi-mcp-adapter/core";
import { type ClientHandlers, clientCapabilities, runHandler } from "./client-handlers.js";
import { connectOver, type PathContext } from "./connect-path.js";
import { TransportError } from "./errors.js";
import type { ProcessTransport } from "./process-transport.js";
import {
  type ProtocolClient,
  progressMeta,
  type SdkFlavor,
  type SessionTransport,
} from "./protocol-client.js";
import { type EraCache, MODERN_REVISION } from "./protocol-revision.js";
import type { ServerConnection } from "./server-connection.js";

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

function newClient(options: ModernOptions, server: string, mode: Mode, probeTimeoutMs: number): V2Client {
  const client = new V2Client(options.identity, {
    capabilities: clientCapabilities(options.handlers),
    versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs } },
    jsonSchemaValidator: NO_OUTPUT_VALIDATION,
    // On 2026-07-28 list changes come only on a `subscriptions/listen` stream, which this
    // opens at connect (for what the server advertises). The notifications are read off the
    // transport like any other; the SDK's own refresh stays off.
    listChanged: { tools: LIST_CHANGED_OFF, prompts: LIST_CHANGED_OFF, resources: LIST_CHANGED_OFF },
  });
  registerHandlers(client, server, options.handlers);
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
      return v2ProtocolClient(client, await listenIfSkipped(client, o));
    },
    streamableHttp: (url, http) =>
      new V2StreamableHttp(url, {
        ...http,
        authProvider: http.authProvider as never,
      }) as unknown as SessionTransport,
    // No `sse`: a rejected endpoint goes back to the v1 path, which serves legacy SSE.
  };
}

/** Registers the handlers the declared capabilities promise (the same ones complete `input_required` rounds). */
function registerHandlers(client: V2Client, server: string, handlers: ClientHandlers | undefined): void {
  const { elicitation, sampling, roots } = handlers ?? {};
  if (elicitation) {
    client.setRequestHandler(
      "elicitation/create",
      (request, ctx) =>
        runHandler("elicitation/create", () =>
          elicitation(request.params as ElicitRequestParams, { server, signal: ctx.mcpReq.signal }),
        ) as Promise<never>,
    );
  }
  if (sampling) {
    client.setRequestHandler(
      "sampling/createMessage",
      (request, ctx) =>
        runHandler("sampling/createMessage", () =>
          sampling(request.params as CreateMessageParams, { server, signal: ctx.mcpReq.signal }),
        ) as Promise<never>,
    );
  }
  if (roots) {
    client.setRequestHandler("roots/list", async (_request, ctx) => ({
      roots: await runHandler("roots/list", () => roots({ server, signal: ctx.mcpReq.signal })),
    }));
  }
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

export function v2ProtocolClient(client: V2Client, subscription?: McpSubscription): ProtocolClient {
  const cursorParams = (cursor: string | undefined) => (cursor ? { cursor } : undefined);
  return {
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    serverVersion: () => {
      const info = client.getServerVersion();
      return info ? { name: info.name, version: info.version } : undefined;
    },
    instructions: () => client.getInstructions(),
    serverCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    ping: (o) => client.ping(o),
    listTools: (cursor, o) => client.listTools(cursorParams(cursor), o),
    listResources: (cursor, o) => client.listResources(cursorParams(cursor), o),
    listResourceTemplates: (cursor, o) => client.listResourceTemplates(cursorParams(cursor), o),
    listPrompts: (cursor, o) => client.listPrompts(cursorParams(cursor), o),
    readResource: (uri, o) => client.readResource({ uri }, o),
    getPrompt: (name, args, o) => client.getPrompt({ name, arguments: args }, o),
    callTool: (name, args, o, progressToken) =>
      client.callTool({ name, arguments: args, ...progressMeta(progressToken) }, o),
    complete: (params, o) => client.complete(params, o),
    subscribeResource: (uri, o) => client.subscribeResource({ uri }, o),
    notifyRootsChanged: () => client.sendRootsListChanged(),
    onClose: (handler) => {
      client.onclose = handler;
    },
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
  };
}
