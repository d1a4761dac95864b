/**
 * `ServerConnection` over either SDK's client (`ProtocolClient`): the MCP
 * operations, tool calls routed to MCP tasks when they ask for it,
 * output-schema checks, and close. Each request is sent by request-runner.ts
 * (pagination, our own deadlines, the call window, errors naming the server).
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
import type { NotificationListener } from "../inbound/server-notification.js";
import type { SessionRenewalListener } from "../protocol/session-renewal.js";
import type {
  CallOptions,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "../remote-types.js";
import { enforceOutputSchema } from "../requests/output-schema-check.js";
import type { SharedSource, SharedState } from "../stdio/shared-state.js";
import type { TaskRevision } from "../task-update.js";
import { TaskRouting, type TaskSettings } from "../tasks/task-routing.js";
import { type RequestParts, RequestRunner } from "./request-runner.js";
import type { ServerConnection } from "./server-connection.js";

export interface SdkConnectionParts extends RequestParts {
  via: ConnectedVia;
  pid?: number;
  /** A stdio server asked to be shared: its sessions, or why it is not. */
  sharing?: SharedSource;
  /** Runs before the client closes, e.g. to end an HTTP session with DELETE. */
  beforeClose?: () => Promise<void>;
  /** A Streamable HTTP session that renews itself when the server lost it (`client` is its client). */
  session?: { onRenewal(listener: SessionRenewalListener): () => void };
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
  private readonly client: SdkConnectionParts["client"];
  private readonly outputSchemas = new Map<string, JsonSchemaObject>();
  private readonly closeListeners = new Set<() => void>();
  private readonly requests: RequestRunner;
  private progressTokens = 0;
  private readonly tasks: TaskRouting;
  readonly cacheHints = () => this.client.cacheHints();

  constructor(private readonly parts: SdkConnectionParts) {
    this.name = parts.name;
    this.via = parts.via;
    this.pid = parts.pid;
    this.client = parts.client;
    this.requests = new RequestRunner(parts, {
      isClosed: () => this.closed,
      markClosed: () => this.markClosed(),
    });
    this.client.onClose(() => this.markClosed());
    this.tasks = new TaskRouting(
      {
        server: parts.name,
        client: parts.client,
        notifications: parts.notifications,
        onClose: (listener) => this.onClose(listener),
        requestTimeoutMs: parts.defaultTimeoutMs,
        outlives: parts.via === "streamable-http" || parts.via === "sse" || parts.via === "socket",
      },
      parts.tasks,
    );
  }

  /** Requests in flight (an idle disconnect waits for none). */
  get activeRequests(): number {
    return this.requests.active;
  }

  get lastActivityAt(): number {
    return this.requests.lastActivityAt;
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
      toolsListChanged: (caps.tools as { listChanged?: unknown } | undefined)?.listChanged === true,
      prompts: caps.prompts !== undefined,
      resources: resources !== undefined,
      resourceSubscribe: resources?.subscribe === true,
      completions: caps.completions !== undefined,
      skills: declaresSkills(caps),
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
      throw this.requests.failure("notifications/roots/list_changed", error);
    });
  }

  stderrTail(lines?: number): string[] {
    return this.parts.stderr.tail(lines);
  }

  async ping(options: CallOptions = {}): Promise<void> {
    await this.requests.send("ping", (o) => this.client.ping(o), options);
  }

  async listTools(options: CallOptions = {}): Promise<RemoteTool[]> {
    const tools = await this.requests.pages("tools/list", options, async (cursor, o) => {
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
    return this.requests.pages("resources/list", options, async (cursor, o) => {
      const page = await this.client.listResources(cursor, o);
      return { items: page.resources as RemoteResource[], nextCursor: page.nextCursor };
    });
  }

  listResourceTemplates(options: CallOptions = {}): Promise<RemoteResourceTemplate[]> {
    return this.requests.pages("resources/templates/list", options, async (cursor, o) => {
      const page = await this.client.listResourceTemplates(cursor, o);
      return { items: page.resourceTemplates as RemoteResourceTemplate[], nextCursor: page.nextCursor };
    });
  }

  listPrompts(options: CallOptions = {}): Promise<RemotePrompt[]> {
    return this.requests.pages("prompts/list", options, async (cursor, o) => {
      const page = await this.client.listPrompts(cursor, o);
      return { items: page.prompts as RemotePrompt[], nextCursor: page.nextCursor };
    });
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ResourceContents> {
    const result = await this.requests.send(
      `resources/read ${uri}`,
      (o) => this.client.readResource(uri, o),
      options,
      { call: true },
    );
    return result as ResourceContents;
  }

  /** `skills/list`, every page; `undefined` (nothing sent) when the server did not declare the extension. */
  async listSkills(options: CallOptions = {}): Promise<unknown[] | undefined> {
    if (!this.features.skills) return undefined;
    return this.requests.pages("skills/list", options, async (cursor, o) => {
      const page = await this.client.listSkills(cursor, o);
      return { items: page.skills, nextCursor: page.nextCursor };
    });
  }

  async getSkill(uri: string, options: CallOptions = {}): Promise<unknown> {
    const result = await this.requests.send(
      `skills/get ${uri}`,
      (o) => this.client.getSkill(uri, o),
      options,
    );
    return result.skill;
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}) {
    const result = await this.requests.send(
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
    const result = await this.requests.send(
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
    await this.requests.send(
      `resources/subscribe ${uri}`,
      (o) => this.client.subscribeResource(uri, o),
      options,
    );
    return true;
  }

  async unsubscribeResource(uri: string, options: CallOptions = {}): Promise<boolean> {
    if (!this.features.resourceSubscribe) return false;
    const method = "resources/unsubscribe";
    await this.requests.send(`${method} ${uri}`, (o) => this.client.request(method, { uri }, o), options);
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
    const result = (await this.requests.send(
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

  async resumeTask(
    name: string,
    taskId: string,
    revision: TaskRevision,
    options: CallOptions = {},
  ): Promise<ToolCallResult> {
    const result = (await this.requests.send(
      `tasks/get ${taskId} (${name})`,
      (o) =>
        this.tasks.resume(name, taskId, revision, {
          ...options,
          signal: o.signal,
          requestTimeoutMs: options.timeoutMs ?? this.parts.defaultTimeoutMs,
        }),
      options,
      { call: true, untimed: true },
    )) as ToolCallResult;
    const schema = options.outputSchema ?? this.outputSchemas.get(name);
    if (schema) enforceOutputSchema(this.name, `tools/call ${name}`, schema, result);
    return result;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // tasks/cancel while the connection still carries it; a remote or shared server's tasks run on
    // (they outlive this process, and a later session follows them again).
    await this.tasks.cancelAll().catch(() => {});
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
}

const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

function declaresSkills(caps: Record<string, unknown>): boolean {
  const extensions = caps.extensions as Record<string, unknown> | undefined;
  return typeof extensions?.[SKILLS_EXTENSION] === "object" && extensions[SKILLS_EXTENSION] !== null;
}
