/**
 * `ServerConnection` over either SDK's client (`ProtocolClient`): pagination,
 * per-request timeouts (our own deadlines: progress restarts them, a total cap
 * bounds them, time waiting on the user is paused — request-deadline.ts) and
 * cancellation, the call window server requests are admitted in
 * (call-window.ts), output-schema checks, and errors that name the server.
 */
import type {
  JsonSchemaObject,
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  RemoteTool,
  ResourceContents,
  ToolCallResult,
} from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
import type { CallWindow } from "../inbound/call-window.js";
import type { NotificationListener, NotificationRelay } from "../inbound/server-notification.js";
import type { ProtocolClient, RequestOptions } from "../protocol/protocol-client.js";
import type { SessionRenewalListener } from "../protocol/session-renewal.js";
import type {
  CallOptions,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "../remote-types.js";
import { enforceOutputSchema } from "../requests/output-schema-check.js";
import {
  deadlineOptions,
  type RequestDeadline,
  type RequestDeadlines,
} from "../requests/request-deadline.js";
import { requestFailure } from "../requests/request-failure.js";
import type { SharedSource, SharedState } from "../stdio/shared-state.js";
import type { StderrBuffer } from "../stdio/stderr-buffer.js";
import { TaskRouting, type TaskSettings } from "../tasks/task-routing.js";
import type { ServerConnection } from "./server-connection.js";

export interface SdkConnectionParts {
  name: string;
  client: ProtocolClient;
  via: ConnectedVia;
  stderr: StderrBuffer;
  /** `requestTimeoutMs`: the idle limit of a request without its own `timeoutMs`. */
  defaultTimeoutMs: number;
  /** `maxTotalTimeoutMs`: the total limit of a request without its own. */
  maxTotalTimeoutMs: number;
  /** The deadlines of this connection's requests (shared with its guarded handlers, which pause them). */
  deadlines: RequestDeadlines;
  /** The calls in flight, which server requests are admitted during (shared with the guarded handlers). */
  window: CallWindow;
  pid?: number;
  /** A stdio server asked to be shared: its sessions, or why it is not. */
  sharing?: SharedSource;
  /** Runs before the client closes, e.g. to end an HTTP session with DELETE. */
  beforeClose?: () => Promise<void>;
  /** A Streamable HTTP session that renews itself when the server lost it (`client` is its client). */
  session?: { onRenewal(listener: SessionRenewalListener): () => void };
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

  get shared(): SharedState | undefined {
    return this.parts.sharing?.shared();
  }

  get daemonLost(): boolean {
    return this.parts.sharing?.daemonLost === true;
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

  onSessionRenewal(listener: SessionRenewalListener): () => void {
    return this.parts.session?.onRenewal(listener) ?? (() => {});
  }

  onNotification(listener: NotificationListener): () => void {
    return this.parts.notifications.on(listener);
  }

  async notifyRootsChanged(): Promise<void> {
    // Servers only expect this from a client that declared roots; without a roots handler there is nothing to tell.
    if (this.closed || !this.parts.rootsDeclared) return;
    await this.client.notifyRootsChanged().catch((error: unknown) => {
      throw this.wrap("notifications/roots/list_changed", error);
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
      { call: true },
    );
    return result as ResourceContents;
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}) {
    const result = await this.request(
      `prompts/get ${name}`,
      (o) => this.client.getPrompt(name, args, o),
      options,
      { call: true },
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

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<boolean> {
    if (!this.features.resourceSubscribe) return false;
    const method = "resources/unsubscribe";
    await this.request(`${method} ${uri}`, (o) => this.client.request(method, { uri }, o), options);
    return true;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const what = `tools/call ${name}`;
    // Every call asks for progress: progress restarts its timeout, and `onProgress` hears it.
    const progressToken = `${this.name}/progress/${++this.progressTokens}`;
    // A task call (task-routing.ts) keeps its own deadline (`taskTimeoutMs`) instead of the request timeout;
    // the request timeout then bounds each of its task requests.
    const viaTask = this.tasks.wants(name, options);
    const result = (await this.request(
      what,
      (o) =>
        viaTask
          ? this.tasks.call(name, args, {
              ...options,
              signal: o.signal,
              requestTimeoutMs: options.timeoutMs ?? this.parts.defaultTimeoutMs,
              progressToken,
            })
          : this.client.callTool(name, args, o, progressToken),
      options,
      { call: true, progressToken, untimed: viaTask },
    )) as ToolCallResult;
    const schema = options.outputSchema ?? this.outputSchemas.get(name);
    if (schema) enforceOutputSchema(this.name, what, schema, result);
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
    this.parts.window.close();
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

  /**
   * Sends one request under its deadline. The SDK's own timer is set out of
   * reach and ours aborts the request instead (the SDK, or our own tool-call
   * path, then sends `notifications/cancelled`): only ours can pause.
   * A `call` opens the window server requests are admitted in; with a
   * `progressToken`, the server's progress restarts the idle limit.
   */
  private async request<T>(
    what: string,
    run: (o: RequestOptions) => Promise<T>,
    options: CallOptions,
    kind: { call?: boolean; progressToken?: string; untimed?: boolean } = {},
  ): Promise<T> {
    if (this.closed) {
      throw new TransportError("closed", this.name, `${this.name}: connection is closed (${what})`, {
        notSent: true,
      });
    }
    // An untimed request (a task's own clock ends it) has no deadline; a deadline follows options.signal.
    const deadline = kind.untimed
      ? undefined
      : this.parts.deadlines.start(
          {
            idleMs: options.timeoutMs ?? this.parts.defaultTimeoutMs,
            totalMs: options.maxTotalTimeoutMs ?? this.parts.maxTotalTimeoutMs,
          },
          options.signal,
        );
    const leave = kind.call ? this.parts.window.enter() : undefined;
    const unsubscribe = kind.progressToken
      ? this.onProgress(kind.progressToken, deadline, options)
      : undefined;
    this.activeRequests++;
    this.lastActivityAt = this.now();
    try {
      return await run(deadlineOptions(deadline, options.signal));
    } catch (error) {
      const failure = this.wrap(what, error, deadline, options.signal);
      // A transport that could not send is dead: the next use must get a new connection.
      if (failure.notSent) this.markClosed();
      throw failure;
    } finally {
      deadline?.end();
      unsubscribe?.();
      leave?.();
      this.activeRequests--;
      this.lastActivityAt = this.now();
    }
  }

  /** Progress under `token`: restarts the deadline's idle limit (if it has one) and reaches `onProgress`. */
  private onProgress(token: string, deadline: RequestDeadline | undefined, options: CallOptions): () => void {
    return this.parts.notifications.on((n) => {
      if (n.kind !== "progress" || n.progressToken !== token) return;
      deadline?.progress();
      const { kind: _kind, progressToken: _token, ...update } = n;
      options.onProgress?.(update);
    });
  }

  private wrap(what: string, error: unknown, deadline?: RequestDeadline, signal?: AbortSignal) {
    return requestFailure({
      server: this.name,
      what,
      error,
      deadline,
      signal,
      kind: this.client.classify(error),
      closed: this.closed,
      stderrTail: (lines) => this.parts.stderr.tail(lines),
    });
  }
}
