/**
 * `ServerConnection` served by the v1 SDK `Client`: pagination, per-request
 * timeouts and cancellation, output-schema checks, and errors that name the
 * server.
 */
import {
  describeError,
  type JsonSchemaObject,
  type PromptResult,
  type RemotePrompt,
  type RemoteResource,
  type RemoteResourceTemplate,
  type RemoteTool,
  type ResourceContents,
  type ToolCallResult,
} from "@pi-mcp-adapter/core";
import { TransportError } from "./errors.js";
import { checkStructuredContent } from "./output-schema-check.js";
import type { ProtocolClient, RequestOptions } from "./protocol-client.js";
import type {
  CallOptions,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "./remote-types.js";
import type { ServerConnection } from "./server-connection.js";
import type { NotificationListener, NotificationRelay } from "./server-notification.js";
import type { StderrBuffer } from "./stderr-buffer.js";
import { TaskRouting, type TaskSettings } from "./task-routing.js";

export interface SdkConnectionParts {
  name: string;
  client: ProtocolClient;
  via: ConnectedVia;
  stderr: StderrBuffer;
  defaultTimeoutMs: number;
  pid?: number;
  /** Runs before the client closes, e.g. to end an HTTP session with DELETE. */
  beforeClose?: () => Promise<void>;
  now?: () => number;
  /** Server notifications read off the transport. */
  notifications: NotificationRelay;
  /** Whether the client declared `roots` (a roots handler exists). */
  rootsDeclared: boolean;
  /** How tool calls run as MCP tasks (task-routing.ts). */
  tasks: TaskSettings;
}

export class SdkServerConnection implements ServerConnection {
  readonly name: string;
  readonly via: ConnectedVia;
  readonly pid: number | undefined;
  closed = false;
  activeRequests = 0;
  lastActivityAt: number;
  private readonly client: ProtocolClient;
  private readonly outputSchemas = new Map<string, JsonSchemaObject>();
  private readonly closeListeners = new Set<() => void>();
  private readonly now: () => number;
  private progressTokens = 0;
  private readonly tasks: TaskRouting;

  constructor(private readonly parts: SdkConnectionParts) {
    this.name = parts.name;
    this.via = parts.via;
    this.pid = parts.pid;
    this.client = parts.client;
    this.now = parts.now ?? Date.now;
    this.lastActivityAt = this.now();
    this.client.onClose(() => this.markClosed());
    this.tasks = new TaskRouting(
      {
        server: parts.name,
        client: parts.client,
        notifications: parts.notifications,
        onClose: (listener) => this.onClose(listener),
        requestTimeoutMs: parts.defaultTimeoutMs,
      },
      parts.tasks,
    );
  }

  get serverVersion() {
    return this.client.serverVersion();
  }

  get instructions() {
    return this.client.instructions();
  }

  get features(): ServerFeatures {
    const caps = this.client.serverCapabilities() ?? {};
    const resources = caps.resources as { subscribe?: unknown } | undefined;
    return {
      tools: caps.tools !== undefined,
      prompts: caps.prompts !== undefined,
      resources: resources !== undefined,
      resourceSubscribe: resources?.subscribe === true,
      completions: caps.completions !== undefined,
    };
  }

  get protocolVersion(): string | undefined {
    return this.client.protocolVersion();
  }

  onClose(listener: () => void): () => void {
    if (this.closed) {
      queueMicrotask(listener);
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  onNotification(listener: NotificationListener): () => void {
    return this.parts.notifications.on(listener);
  }

  async notifyRootsChanged(): Promise<void> {
    // Servers only expect this from a client that declared roots; without a roots handler there is nothing to tell.
    if (this.closed || !this.parts.rootsDeclared) return;
    await this.client.notifyRootsChanged().catch((error: unknown) => {
      throw this.wrap("notifications/roots/list_changed", error, this.parts.defaultTimeoutMs, undefined);
    });
  }

  stderrTail(lines?: number): string[] {
    return this.parts.stderr.tail(lines);
  }

  async ping(options: CallOptions = {}): Promise<void> {
    await this.request("ping", (o) => this.client.ping(o), options);
  }

  async listTools(options: CallOptions = {}): Promise<RemoteTool[]> {
    const tools = await this.pages("tools/list", options, async (cursor, o) => {
      const page = await this.client.listTools(cursor, o);
      return { items: page.tools as RemoteTool[], nextCursor: page.nextCursor };
    });
    for (const tool of tools) {
      if (tool.outputSchema) this.outputSchemas.set(tool.name, tool.outputSchema);
    }
    this.tasks.learn(tools);
    return tools;
  }

  listResources(options: CallOptions = {}): Promise<RemoteResource[]> {
    return this.pages("resources/list", options, async (cursor, o) => {
      const page = await this.client.listResources(cursor, o);
      return { items: page.resources as RemoteResource[], nextCursor: page.nextCursor };
    });
  }

  listResourceTemplates(options: CallOptions = {}): Promise<RemoteResourceTemplate[]> {
    return this.pages("resources/templates/list", options, async (cursor, o) => {
      const page = await this.client.listResourceTemplates(cursor, o);
      return { items: page.resourceTemplates as RemoteResourceTemplate[], nextCursor: page.nextCursor };
    });
  }

  listPrompts(options: CallOptions = {}): Promise<RemotePrompt[]> {
    return this.pages("prompts/list", options, async (cursor, o) => {
      const page = await this.client.listPrompts(cursor, o);
      return { items: page.prompts as RemotePrompt[], nextCursor: page.nextCursor };
    });
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ResourceContents> {
    const result = await this.request(
      `resources/read ${uri}`,
      (o) => this.client.readResource(uri, o),
      options,
    );
    return result as ResourceContents;
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}) {
    const result = await this.request(
      `prompts/get ${name}`,
      (o) => this.client.getPrompt(name, args, o),
      options,
    );
    return result as PromptResult;
  }

  async complete(request: CompletionRequest, options: CallOptions = {}): Promise<CompletionResult> {
    if (!this.features.completions) return { values: [] };
    const ref = request.ref.type === "ref/prompt" ? request.ref.name : request.ref.uri;
    const result = await this.request(
      `completion/complete ${ref} ${request.argument.name}`,
      (o) =>
        this.client.complete(
          {
            ref: request.ref,
            argument: request.argument,
            ...(request.context ? { context: { arguments: request.context } } : {}),
          },
          o,
        ),
      options,
    );
    const completion = result.completion;
    return {
      values: Array.isArray(completion?.values) ? completion.values.filter((v) => typeof v === "string") : [],
      ...(typeof completion?.total === "number" ? { total: completion.total } : {}),
      ...(typeof completion?.hasMore === "boolean" ? { hasMore: completion.hasMore } : {}),
    };
  }

  async subscribeResource(uri: string, options: CallOptions = {}): Promise<boolean> {
    if (!this.features.resourceSubscribe) return false;
    await this.request(`resources/subscribe ${uri}`, (o) => this.client.subscribeResource(uri, o), options);
    return true;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const what = `tools/call ${name}`;
    const onProgress = options.onProgress;
    const progressToken = onProgress ? `${this.name}/progress/${++this.progressTokens}` : undefined;
    const unsubscribe = onProgress
      ? this.parts.notifications.on((n) => {
          if (n.kind !== "progress" || n.progressToken !== progressToken) return;
          const { kind: _kind, progressToken: _token, ...update } = n;
          onProgress(update);
        })
      : undefined;
    let result: ToolCallResult;
    try {
      // A task call (task-routing.ts) keeps its own deadline instead of the request timeout.
      const viaTask = this.tasks.wants(name, options);
      result = (await this.request(
        what,
        (o) =>
          viaTask
            ? this.tasks.call(name, args, { ...options, requestTimeoutMs: o.timeout, progressToken })
            : this.client.callTool(name, args, o, progressToken),
        options,
      )) as ToolCallResult;
    } finally {
      unsubscribe?.();
    }
    const schema = options.outputSchema ?? this.outputSchemas.get(name);
    if (schema && !result.isError) {
      if (result.structuredContent === undefined) {
        throw new TransportError(
          "invalid_result",
          this.name,
          `${this.name}: ${what} declares an outputSchema but returned no structuredContent`,
        );
      }
      const problem = checkStructuredContent(schema, result.structuredContent);
      if (problem) {
        throw new TransportError(
          "invalid_result",
          this.name,
          `${this.name}: ${what} returned structuredContent that does not match its outputSchema: ${problem}`,
        );
      }
    }
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.tasks.cancelAll().catch(() => {}); // tasks/cancel while the connection still carries it
    await this.parts.beforeClose?.().catch(() => {});
    await this.client.close().catch(() => {});
    this.markClosed();
  }

  private markClosed(): void {
    if (this.closed && this.closeListeners.size === 0) return;
    this.closed = true;
    this.parts.notifications.clear();
    const listeners = [...this.closeListeners];
    this.closeListeners.clear();
    for (const listener of listeners) listener();
  }

  private async pages<T>(
    what: string,
    options: CallOptions,
    fetchPage: (
      cursor: string | undefined,
      o: RequestOptions,
    ) => Promise<{ items: T[]; nextCursor?: string }>,
  ): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await this.request(what, (o) => fetchPage(cursor, o), options);
      items.push(...page.items);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (seen.has(cursor)) break; // a server repeating a cursor would loop forever
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    return items;
  }

  private async request<T>(
    what: string,
    run: (o: RequestOptions) => Promise<T>,
    options: CallOptions,
  ): Promise<T> {
    const timeout = options.timeoutMs ?? this.parts.defaultTimeoutMs;
    if (this.closed) {
      throw new TransportError("closed", this.name, `${this.name}: connection is closed (${what})`);
    }
    this.activeRequests++;
    this.lastActivityAt = this.now();
    try {
      return await run({ signal: options.signal, timeout });
    } catch (error) {
      throw this.wrap(what, error, timeout, options.signal);
    } finally {
      this.activeRequests--;
      this.lastActivityAt = this.now();
    }
  }

  private wrap(what: string, error: unknown, timeoutMs: number, signal: AbortSignal | undefined) {
    const cause = { cause: error };
    if (error instanceof TransportError) return error;
    if (signal?.aborted) {
      return new TransportError("request_cancelled", this.name, `${this.name}: ${what} was cancelled`, cause);
    }
    const kind = this.client.classify(error);
    if (kind === "timeout") {
      const message = `${this.name}: ${what} timed out after ${timeoutMs} ms`;
      return new TransportError("request_timeout", this.name, message, cause);
    }
    if (this.closed || kind === "closed") {
      const tail = this.parts.stderr.tail(3);
      const hint = tail.length ? ` — server stderr: ${tail.join(" | ")}` : "";
      return new TransportError(
        "closed",
        this.name,
        `${this.name}: connection closed during ${what}${hint}`,
        cause,
      );
    }
    const message = `${this.name}: ${what} failed: ${describeError(error)}`;
    return new TransportError("request_failed", this.name, message, cause);
  }
}
