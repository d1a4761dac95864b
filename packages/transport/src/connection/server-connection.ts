/**
 * The contract of one live connection to an MCP server, whichever transport
 * and SDK carry it, and the options of connecting one (`connectServer` in
 * connect-server.ts). Nothing here imports the implementations.
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  RemoteTool,
  ResourceContents,
  ServerDefinition,
  ToolCallResult,
} from "@pi-mcp-adapter/core";
import type { OpenSharedOptions } from "@pi-mcp-adapter/daemon";
import type { FetchLike } from "../http/http-shape-probe.js";
import type { Sleep } from "../http/read-retry.js";
import type { ClientHandlers } from "../inbound/client-handlers.js";
import type { NotificationListener } from "../inbound/server-notification.js";
import type { CacheHints } from "../protocol/cache-hints.js";
import type { EraCache } from "../protocol/protocol-revision.js";
import type { SessionRenewalListener } from "../protocol/session-renewal.js";
import type {
  CallOptions,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "../remote-types.js";
import type { SandboxOptions } from "../sandbox/sandbox-spawn.js";
import type { ResolveCommand } from "../stdio/npx-resolver.js";
import type { SharedState } from "../stdio/shared-state.js";
import type { SpawnFn } from "../stdio/spawn-process.js";
import type { TaskRevision } from "../task-update.js";
import type { Timers } from "../timers.js";

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface ClientIdentity {
  name: string;
  version: string;
}

export interface ServerConnection {
  readonly name: string;
  /** Which transport carries this connection (HTTP may have fallen back to SSE). */
  readonly via: ConnectedVia;
  /** The server's `serverInfo` from initialize: name and version, and its title and description when it gave them. */
  readonly serverVersion: { name: string; version: string; title?: string; description?: string } | undefined;
  /** The server's `instructions` from initialize, if any. */
  readonly instructions: string | undefined;
  /** True once the connection has ended (closed by us, or the server went away). */
  readonly closed: boolean;
  /** Protocol revision in use, e.g. `2025-11-25`, or `2026-07-28` after negotiation. */
  readonly protocolVersion: string | undefined;
  /** Pid of a stdio server's process (the daemon's shared one when shared). */
  readonly pid: number | undefined;
  /** For a stdio server asked to be shared: the sessions sharing its process, or why it runs unshared. */
  readonly shared?: SharedState;
  /** True when the connection ended because the shared-server daemon went away (no fault of the server). */
  readonly daemonLost?: boolean;
  /** What the server declared it offers (prompts, resources, subscriptions, completions). */
  readonly features: ServerFeatures;
  /**
   * The caching hints of the lists made on this connection (2026-07-28
   * `ttlMs`, `cacheScope`; the shortest TTL, private if any list is), or
   * undefined when none carried any (every 2025 server).
   */
  cacheHints?(): CacheHints | undefined;
  /** Requests sent and not yet answered; idle disconnect waits for zero. */
  readonly activeRequests: number;
  /** When a request last started or ended (ms since epoch). */
  readonly lastActivityAt: number;
  /** Called once when the connection ends, for any reason. Returns an unsubscribe function. */
  onClose(listener: () => void): () => void;
  /**
   * Streamable HTTP: hears when the server lost the session (it restarted,
   * or expired it) and the connection opens a new one — `renewing`, then
   * `renewed` (its lists may have changed) or `failed` (the connection
   * closes). Never called for other transports. Returns an unsubscribe function.
   */
  onSessionRenewal(listener: SessionRenewalListener): () => void;
  /** Server notifications (list changes, resource updates, progress, log messages). Returns an unsubscribe function. */
  onNotification(listener: NotificationListener): () => void;
  /** Tells the server the client's roots changed (no-op without a `roots` handler). */
  notifyRootsChanged(): Promise<void>;
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
  /**
   * `skills/list` (SEP-2640), every page, each entry as the server sent it
   * (the host checks them). `undefined`, with nothing sent, when the server
   * did not declare the skills extension; `[]` is a server that declares it
   * and lists none now (it may still serve skills by URI).
   */
  listSkills(options?: CallOptions): Promise<unknown[] | undefined>;
  /** `skills/get` (SEP-2640): the entry of the skill whose `SKILL.md` is at `uri`, unchecked. */
  getSkill(uri: string, options?: CallOptions): Promise<unknown>;
  /**
   * `completion/complete`: values for a prompt argument or a resource
   * template variable. A server that did not declare `completions` is not
   * asked: the answer is no values.
   */
  complete(request: CompletionRequest, options?: CallOptions): Promise<CompletionResult>;
  /**
   * `resources/subscribe`: the server then sends `resources/updated` for
   * `uri`. Returns false (sending nothing) when the server does not declare
   * `resources.subscribe`.
   */
  subscribeResource(uri: string, options?: CallOptions): Promise<boolean>;
  /** `resources/unsubscribe`: ends a `subscribeResource`; false (sending nothing) without `resources.subscribe`. */
  unsubscribeResource(uri: string, options?: CallOptions): Promise<boolean>;
  /** Calls a tool; `structuredContent` is checked against the tool's `outputSchema`. */
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolCallResult>;
  /**
   * Follows a task a `callTool` of `name` started earlier, maybe in another
   * process (`TaskUpdate.taskId` and `.revision`), to its end and returns its
   * result as `callTool` would; `onTask` hears its status, the abort signal
   * cancels it on the server. Fails when the server does not know the task.
   */
  resumeTask(
    name: string,
    taskId: string,
    revision: TaskRevision,
    options?: CallOptions,
  ): Promise<ToolCallResult>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  client?: ClientIdentity;
  /**
   * Answers the server's requests (elicitation, sampling, roots): one set for
   * every server, or a function choosing per definition (undefined for none).
   * Each handler given declares its capability in `initialize`; none given,
   * none declared. Read at each connect.
   */
  handlers?: ClientHandlers | ((definition: ServerDefinition) => ClientHandlers | undefined);
  /** Working directory for stdio servers without their own `cwd`. */
  cwd?: string;
  /** Base environment for stdio servers; defaults to this process's environment. */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * A custom transport, e.g. an in-memory pair in tests. Overrides the definition's transport,
   * not its `protocol`: `auto` and pinned revisions negotiate over it (SDK v2).
   */
  transport?: Transport;
  /**
   * Rewrites a stdio command before spawning. Default: the npx resolver with an
   * in-memory cache (`createNpxResolver`); pass `null` to run commands as written.
   */
  resolveCommand?: ResolveCommand | null;
  spawn?: SpawnFn;
  fetch?: FetchLike;
  /**
   * Waits between retries of a read that met a transient HTTP failure (408,
   * 429, 5xx, a dropped connection); default a timer. See read-retry.ts.
   */
  sleep?: Sleep;
  /**
   * The longest message a stdio or socket server may send, in bytes (default
   * 64 MiB). A longer answer fails its request at once ("answer too large:
   * 70 MiB from server "x" (limit 64 MiB)"); the connection stays usable.
   */
  maxFrameBytes?: number;
  /** Grace between SIGTERM and SIGKILL when a stdio server is closed. Default 2000 ms. */
  killGraceMs?: number;
  /** The clock and timers of request deadlines (and the connection's activity times). */
  now?: () => number;
  timers?: Timers;
  /**
   * OAuth for remote servers: the provider for a definition (or undefined for
   * none). Given one, a 401 runs the SDK's auth flow; without one it is `needs_auth`.
   */
  authProvider?: (definition: ServerDefinition) => OAuthClientProvider | undefined;
  /** Era verdicts of `protocol: "auto"` stdio servers (default: one cache per process). */
  eraCache?: EraCache;
  /** How sandboxes of servers with `sandbox` are built (the bwrap binary, more unreadable places). */
  sandbox?: SandboxOptions;
  /**
   * Shared servers: where the per-user daemon lives (`agentDir`) and how it
   * is started. A stdio definition with `shared: true` reaches the daemon's
   * process for its exact spawn spec instead of spawning one; without this
   * option nothing is shared. `idleTimeoutMs` is how long a shared server
   * outlives its last session when the definition has no `idleTimeoutMin`.
   */
  sharing?: SharingOptions;
}

/** Where the shared-server daemon lives and how it starts (see `ConnectOptions.sharing`). */
export type SharingOptions = Pick<
  OpenSharedOptions,
  "agentDir" | "idleTimeoutMs" | "daemonCommand" | "startTimeoutMs"
>;
