/**
 * One live connection to an MCP server over the official SDK (v1).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  describeError,
  type RemoteTool,
  type ServerDefinition,
  type ToolCallResult,
} from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import { StderrBuffer } from "./stderr-buffer.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ClientIdentity {
  name: string;
  version: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ServerConnection {
  readonly name: string;
  readonly serverVersion: { name: string; version: string } | undefined;
  /** The server's `instructions` from initialize, if any. */
  readonly instructions: string | undefined;
  /** True once the connection has ended (closed by us, or the server went away). */
  readonly closed: boolean;
  /** Recent stderr of a stdio server (bounded); empty for remote servers. */
  stderrTail(lines?: number): string[];
  /** Every tool, following pagination cursors. */
  listTools(): Promise<RemoteTool[]>;
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
}

const DEFAULT_CLIENT: ClientIdentity = { name: "pi-mcp-adapter", version: "0.1.0" };

/** Connects and initializes; throws a `TransportError` naming the server on failure. */
export async function connectServer(
  definition: ServerDefinition,
  options: ConnectOptions = {},
): Promise<ServerConnection> {
  const stderr = new StderrBuffer();
  const transport = options.transport ?? createTransport(definition, options, stderr);
  const client = new Client(options.client ?? DEFAULT_CLIENT, { capabilities: {} });
  const timeout = definition.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    await transport.close().catch(() => {});
    const tail = stderr.tail(3);
    const hint = tail.length ? ` — server stderr: ${tail.join(" | ")}` : "";
    throw new TransportError(
      "connect_failed",
      definition.name,
      `Could not connect to MCP server "${definition.name}": ${describeError(error)}${hint}`,
      { cause: error },
    );
  }
  return new SdkServerConnection(definition, client, stderr, timeout);
}

function createTransport(
  definition: ServerDefinition,
  options: ConnectOptions,
  stderr: StderrBuffer,
): Transport {
  switch (definition.transport) {
    case "stdio": {
      if (!definition.command) {
        throw new TransportError(
          "connect_failed",
          definition.name,
          `Server "${definition.name}" has no command`,
        );
      }
      const baseEnv = options.baseEnv ?? process.env;
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries({ ...baseEnv, ...definition.env })) {
        if (value !== undefined) env[key] = value;
      }
      const transport = new StdioClientTransport({
        command: definition.command,
        args: definition.args ?? [],
        env,
        cwd: definition.cwd ?? options.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => stderr.append(chunk.toString("utf8")));
      return transport;
    }
    case "http": {
      if (!definition.url) {
        throw new TransportError("connect_failed", definition.name, `Server "${definition.name}" has no url`);
      }
      return new StreamableHTTPClientTransport(new URL(definition.url), {
        requestInit: definition.headers ? { headers: definition.headers } : undefined,
      });
    }
    default:
      throw new TransportError(
        "unsupported_transport",
        definition.name,
        `Server "${definition.name}": transport "${definition.transport}" is not supported yet`,
      );
  }
}

class SdkServerConnection implements ServerConnection {
  readonly name: string;
  closed = false;

  constructor(
    definition: ServerDefinition,
    private readonly client: Client,
    private readonly stderr: StderrBuffer,
    private readonly defaultTimeoutMs: number,
  ) {
    this.name = definition.name;
    client.onclose = () => {
      this.closed = true;
    };
  }

  get serverVersion() {
    const info = this.client.getServerVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  }

  get instructions() {
    return this.client.getInstructions();
  }

  stderrTail(lines?: number): string[] {
    return this.stderr.tail(lines);
  }

  async listTools(): Promise<RemoteTool[]> {
    const tools: RemoteTool[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.request("tools/list", (options) =>
        this.client.listTools(cursor ? { cursor } : undefined, options),
      );
      tools.push(...(page.tools as RemoteTool[]));
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (seenCursors.has(cursor)) break; // a server repeating a cursor would loop forever
        seenCursors.add(cursor);
      }
    } while (cursor !== undefined);
    return tools;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const result = await this.request(
      `tools/call ${name}`,
      (requestOptions) => this.client.callTool({ name, arguments: args }, undefined, requestOptions),
      options,
    );
    return result as ToolCallResult;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client.close();
  }

  private async request<T>(
    what: string,
    run: (options: { signal?: AbortSignal; timeout: number }) => Promise<T>,
    options: CallOptions = {},
  ): Promise<T> {
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    try {
      return await run({ signal: options.signal, timeout });
    } catch (error) {
      throw this.wrap(what, error, timeout, options.signal);
    }
  }

  private wrap(
    what: string,
    error: unknown,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): TransportError {
    if (signal?.aborted) {
      return new TransportError("request_cancelled", this.name, `${this.name}: ${what} was cancelled`, {
        cause: error,
      });
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new TransportError(
        "request_timeout",
        this.name,
        `${this.name}: ${what} timed out after ${timeoutMs} ms`,
        { cause: error },
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      const tail = this.stderr.tail(3);
      const hint = tail.length ? ` — server stderr: ${tail.join(" | ")}` : "";
      return new TransportError(
        "closed",
        this.name,
        `${this.name}: connection closed during ${what}${hint}`,
        {
          cause: error,
        },
      );
    }
    return new TransportError(
      "request_failed",
      this.name,
      `${this.name}: ${what} failed: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
}
