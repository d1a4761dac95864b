/**
 * One live connection to an MCP server, whichever transport carries it.
 */

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import {
  describeError,
  type RemoteTool,
  type ServerDefinition,
  type ToolCallResult,
} from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import { type FetchLike, probeHttpShape } from "./http-shape-probe.js";
import { createNpxResolver, type ResolveCommand } from "./npx-resolver.js";
import { ProcessTransport, type SpawnFn } from "./process-transport.js";
import { v1ProtocolClient } from "./protocol-client.js";
import { type EraCache, MODERN_REVISION } from "./protocol-revision.js";
import type {
  CallOptions,
  ConnectedVia,
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  ResourceContents,
} from "./remote-types.js";
import { SdkServerConnection } from "./sdk-connection.js";
import { SocketTransport } from "./socket-transport.js";
import { guardSseResponses } from "./sse-response-guard.js";
import { StderrBuffer } from "./stderr-buffer.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ClientIdentity {
  name: string;
  version: string;
}

export interface ServerConnection {
  readonly name: string;
  /** Which transport carries this connection (HTTP may have fallen back to SSE). */
  readonly via: ConnectedVia;
  readonly serverVersion: { name: string; version: string } | undefined;
  /** The server's `instructions` from initialize, if any. */
  readonly instructions: string | undefined;
  /** True once the connection has ended (closed by us, or the server went away). */
  readonly closed: boolean;
  /** Protocol revision in use, e.g. `2025-11-25`, or `2026-07-28` after negotiation. */
  readonly protocolVersion: string | undefined;
  /** Pid of a stdio server's process. */
  readonly pid: number | undefined;
  /** Requests sent and not yet answered; idle disconnect waits for zero. */
  readonly activeRequests: number;
  /** When a request last started or ended (ms since epoch). */
  readonly lastActivityAt: number;
  /** Called once when the connection ends, for any reason. Returns an unsubscribe function. */
  onClose(listener: () => void): () => void;
  /** Recent stderr of a stdio server (bounded); empty for remote servers. */
  stderrTail(lines?: number): string[];
  ping(options?: CallOptions): Promise<void>;
  /** Every tool, following pagination cursors. */
  listTools(options?: CallOptions): Promise<RemoteTool[]>;
  listResources(options?: CallOptions): Promise<RemoteResource[]>;
  listResourceTemplates(options?: CallOptions): Promise<RemoteResourceTemplate[]>;
  listPrompts(options?: CallOptions): Promise<RemotePrompt[]>;
  readResource(uri: string, options?: CallOptions): Promise<ResourceContents>;
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<PromptResult>;
  /** Calls a tool; `structuredContent` is checked against the tool's `outputSchema`. */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  client?: ClientIdentity;
  /** Working directory for stdio servers without their own `cwd`. */
  cwd?: string;
  /** Base environment for stdio servers; defaults to this process's environment. */
  baseEnv?: NodeJS.ProcessEnv;
  /** A custom transport, e.g. an in-memory pair in tests. Overrides the definition's transport. */
  transport?: Transport;
  /**
   * Rewrites a stdio command before spawning. Default: the npx resolver with an
   * in-memory cache (`createNpxResolver`); pass `null` to run commands as written.
   */
  resolveCommand?: ResolveCommand | null;
  spawn?: SpawnFn;
  fetch?: FetchLike;
  /** Grace between SIGTERM and SIGKILL when a stdio server is closed. Default 2000 ms. */
  killGraceMs?: number;
  now?: () => number;
  /**
   * OAuth for remote servers: the provider for a definition (or undefined for
   * none). Given one, a 401 runs the SDK's auth flow; without one it is `needs_auth`.
   */
  authProvider?: (definition: ServerDefinition) => OAuthClientProvider | undefined;
  /** Era verdicts of `protocol: "auto"` stdio servers (default: one cache per process). */
  eraCache?: EraCache;
}

const DEFAULT_CLIENT: ClientIdentity = { name: "pi-mcp-adapter", version: "0.1.0" };
/** HTTP statuses that prove the endpoint is not Streamable HTTP (so legacy SSE may be). */
const DEFINITIVE_REJECTIONS = new Set([404, 405, 406, 415]);
/** The SDK validates output schemas only for the last page of tools; we do it ourselves. */
const NO_SDK_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
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
  const makeClient = () =>
    new Client(options.client ?? DEFAULT_CLIENT, {
      capabilities: {},
      jsonSchemaValidator: NO_SDK_OUTPUT_VALIDATION,
    });
  const parts = { name, stderr, defaultTimeoutMs: timeout, now: options.now };
  // Aborting (shutdown, reconnect) closes the transport, which ends a pending initialize at once.
  const connectClient = async (client: Client, transport: Transport) => {
    const abort = () => void transport.close().catch(() => {});
    signal?.addEventListener("abort", abort, { once: true });
    try {
      await client.connect(transport, { timeout, signal });
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  };
  const failed = (error: unknown, hint = "") => {
    const tail = stderr.tail(3);
    const stderrHint = tail.length ? ` — server stderr: ${tail.join(" | ")}` : "";
    const code = isAuthFailure(error) ? "needs_auth" : "connect_failed";
    return new TransportError(
      code,
      name,
      `Could not connect to MCP server "${name}": ${describeError(error)}${hint}${stderrHint}`,
      { cause: error },
    );
  };

  if (options.transport) {
    const client = makeClient();
    await connectClient(client, options.transport).catch((error: unknown) => {
      throw failed(error);
    });
    return new SdkServerConnection({ ...parts, client: v1ProtocolClient(client), via: "custom" });
  }

  if (definition.protocol !== "legacy") {
    try {
      // SDK v2 loads only for servers that opt into negotiation: importing this package stays cheap.
      const { connectModern } = await import("./modern-connect.js");
      const modern = await connectModern(definition, {
        identity: options.client ?? DEFAULT_CLIENT,
        parts,
        timeout,
        signal,
        fetch: options.fetch,
        authProvider: options.authProvider?.(definition),
        eraCache: options.eraCache,
        spawnProcess: (forProbe) =>
          createProcessTransport(definition, options, forProbe ? new StderrBuffer() : stderr),
      });
      if (modern) return modern;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      const pinHint =
        (error as { code?: unknown }).code === "ERA_NEGOTIATION_FAILED"
          ? ` (it does not offer ${MODERN_REVISION}; set "protocol": "auto" or "legacy")`
          : "";
      throw failed(error, pinHint);
    }
  }

  switch (definition.transport) {
    case "stdio": {
      const transport = await createProcessTransport(definition, options, stderr);
      const client = makeClient();
      try {
        await connectClient(client, transport);
      } catch (error) {
        await transport.close().catch(() => {});
        throw failed(error);
      }
      return new SdkServerConnection({
        ...parts,
        client: v1ProtocolClient(client),
        via: "stdio",
        pid: transport.pid,
      });
    }
    case "socket": {
      if (!definition.socket) throw missing(name, "socket");
      const client = makeClient();
      const transport = new SocketTransport(definition.socket);
      await connectClient(client, transport).catch(async (error: unknown) => {
        await transport.close();
        throw failed(error);
      });
      return new SdkServerConnection({ ...parts, client: v1ProtocolClient(client), via: "socket" });
    }
    case "http":
    case "sse": {
      if (!definition.url) throw missing(name, "url");
      let url: URL;
      try {
        url = new URL(definition.url);
      } catch {
        throw new TransportError(
          "connect_failed",
          name,
          `Server "${name}": url "${definition.url}" is not a valid URL`,
        );
      }
      const authProvider = options.authProvider?.(definition);
      const base = {
        requestInit: definition.headers ? { headers: definition.headers } : undefined,
        ...(authProvider ? { authProvider } : {}),
      };
      const sseOptions = { ...base, ...(options.fetch ? { fetch: options.fetch } : {}) };
      // Streamable HTTP gets a fetch that ends a cut SSE answer at once instead of at the timeout.
      const streamableOptions = { ...base, fetch: guardSseResponses(options.fetch) };
      const connectSse = async () => {
        const client = makeClient();
        const transport = new SSEClientTransport(url, sseOptions);
        try {
          await connectClient(client, transport);
        } catch (error) {
          await transport.close().catch(() => {});
          throw error;
        }
        return new SdkServerConnection({ ...parts, client: v1ProtocolClient(client), via: "sse" });
      };
      try {
        if (definition.transport === "sse") return await connectSse();
        const client = makeClient();
        const transport = new StreamableHTTPClientTransport(url, streamableOptions);
        try {
          await connectClient(client, transport);
        } catch (error) {
          await transport.close().catch(() => {});
          if (!isDefinitiveRejection(error)) throw error;
          return await connectSse();
        }
        const beforeClose = async () => {
          if (transport.sessionId) await transport.terminateSession();
        };
        return new SdkServerConnection({
          ...parts,
          client: v1ProtocolClient(client),
          via: "streamable-http",
          beforeClose,
        });
      } catch (error) {
        if (isAuthFailure(error)) throw failed(error);
        const hint = await probeHttpShape(definition.url, {
          headers: definition.headers,
          fetch: options.fetch,
        }).catch(() => undefined);
        throw failed(error, hint ? ` (${hint})` : "");
      }
    }
    default:
      throw new TransportError(
        "unsupported_transport",
        name,
        `Server "${name}": transport "${definition.transport}" is not supported`,
      );
  }
}

async function createProcessTransport(
  definition: ServerDefinition,
  options: ConnectOptions,
  stderr: StderrBuffer,
): Promise<ProcessTransport> {
  if (!definition.command) throw missing(definition.name, "command");
  const baseEnv = options.baseEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...baseEnv, ...definition.env })) {
    if (value !== undefined) env[key] = value;
  }
  let command = definition.command;
  let args = definition.args ?? [];
  const resolve = options.resolveCommand === undefined ? defaultResolver() : options.resolveCommand;
  if (resolve) ({ command, args } = await resolve(command, args));
  return new ProcessTransport({
    command,
    args,
    env,
    cwd: definition.cwd ?? options.cwd,
    onStderr: (chunk) => stderr.append(chunk),
    killGraceMs: options.killGraceMs,
    spawn: options.spawn,
  });
}

let sharedResolver: ResolveCommand | undefined;
function defaultResolver(): ResolveCommand {
  sharedResolver ??= createNpxResolver();
  return sharedResolver;
}

function missing(name: string, field: string): TransportError {
  return new TransportError("connect_failed", name, `Server "${name}" has no ${field}`);
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) return error.code;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" ? code : undefined;
}

function isDefinitiveRejection(error: unknown): boolean {
  const status = httpStatus(error);
  return status !== undefined && DEFINITIVE_REJECTIONS.has(status);
}

function isAuthFailure(error: unknown): boolean {
  const status = httpStatus(error);
  return status === 401 || status === 403 || (error as Error | undefined)?.name === "UnauthorizedError";
}
