/**
 * The adapter without Pi: configured servers, their tool catalog, and the
 * operations the proxy tool and the CLI offer (status, search, describe,
 * call, resource reads and prompt gets through one call pipeline). Servers
 * connect on first use. What it needs from its host comes through `Host`.
 */

import { selectApprovalDialog } from "@pi-mcp-adapter/approval";
import { type ConfigProblem, definitionHash } from "@pi-mcp-adapter/config";
import type { ToolCallResult } from "@pi-mcp-adapter/core";
import {
  describeError,
  isHiddenFromApp,
  McpAdapterError,
  type ServerDefinition,
  type ToolMetadata,
} from "@pi-mcp-adapter/core";
import { type RankResult, rankTools, resolveToolName } from "@pi-mcp-adapter/search";
import {
  type CompletionRequest,
  type CompletionResult,
  ConnectionManager,
  type ConnectionManagerOptions,
  connectServer,
  createNpxResolver,
  type ServerStatus,
  type StatusListener,
} from "@pi-mcp-adapter/transport";
import { type UiMessage, type UiToolResult, UiViewer } from "@pi-mcp-adapter/ui";
import type { CallObserver } from "./calls/call-observers.js";
import { CallPipeline, type CallRequest, type CallSettings } from "./calls/call-pipeline.js";
import type { CallResult } from "./calls/call-result.js";
import { type CallOrigin, type CallTarget, kindOf, serverOf } from "./calls/call-target.js";
import { checkArguments } from "./calls/check-arguments.js";
import { withChangedNote, withTemplateSuggestions } from "./calls/resource-reads.js";
import { ResourceUpdates } from "./calls/resource-updates.js";
import { appResultOf, type RuntimeUiOptions, resolveUiOptions } from "./calls/ui-apps.js";
import { type DirectToolPlan, type DirectToolSettings, planDirectTools } from "./catalog/direct-tools.js";
import { type PromptEntry, promptEntries } from "./catalog/prompt-catalog.js";
import { runLimited } from "./catalog/run-limited.js";
import { ToolCatalog, type ToolCatalogOptions } from "./catalog/tool-catalog.js";
import { findByPrefixedName } from "./catalog/tool-name-index.js";
import { explainUrlElicitationRequired } from "./client-features/elicitation-flow.js";
import { SamplingUsage } from "./client-features/sampling-usage.js";
import type { SessionRoots } from "./client-features/session-roots.js";
import { type Host, headlessHost } from "./host.js";
import type { OAuthWiring } from "./oauth/oauth-wiring.js";
import type { CallStats } from "./observability/stats-observer.js";
import { emptyStatusSnapshot, type ServerSummary, watchStatus } from "./observability/status-events.js";
import type { SessionTrace } from "./observability/trace-observer.js";
import { tracedListing, tracedOAuth } from "./observability/trace-sources.js";
import { StderrTails } from "./servers/stderr-tails.js";
import { OutputShapes } from "./tools/output-shapes.js";

/** At most this many servers are discovered at once. */
export const MAX_PARALLEL_DISCOVERY = 4;

export interface AdapterRuntimeOptions extends ConnectionManagerOptions {
  servers: ServerDefinition[];
  problems?: ConfigProblem[];
  /** The metadata disk cache and default tool prefix. */
  catalog?: ToolCatalogOptions;
  /** Approval and output-guard settings of every call. */
  calls?: CallSettings;
  /** Dialogs, notices, status sink and broker bus; default a headless host (no UI). */
  host?: Host;
  /** OAuth logins and credentials of the HTTP servers; shut down with the runtime. */
  oauth?: OAuthWiring;
  /** The session's roots (answered to `roots/list`); a change is told to connected servers. */
  roots?: SessionRoots;
  /** Where the client handlers count sampling token usage; default a fresh counter. */
  samplingUsage?: SamplingUsage;
  /** Reads the servers and problems again (from config files); without it `reload()` refuses. */
  reloadConfig?: () => Promise<{
    servers: ServerDefinition[];
    problems: ConfigProblem[];
    direct?: DirectToolSettings;
  }>;
  /** The direct-tool settings (`directTools`, `freezeDirectTools`, …). */
  direct?: DirectToolSettings;
  /** The session trace (`settings.trace`): observes calls and connection changes; closed at shutdown. */
  trace?: SessionTrace;
  /** Call stats (`settings.captureStats`): observes calls; written at shutdown. */
  stats?: CallStats;
  /** Output shapes mcpScript calls observed (describe hints); default in memory only. */
  outputShapes?: OutputShapes;
  /** MCP Apps: the viewer (`browser` / `none`), tool consent, how windows open. */
  ui?: RuntimeUiOptions;
}

/**
 * Why a server's listing changed: a list-changed notification, an explicit
 * reconnect (`/mcp-adapter reconnect`, `mcp({ connect })`), its first live or
 * cached listing this session, or a config change (edited, enabled, disabled).
 */
export type ListingChangeReason = "list_changed" | "reconnect" | "listed" | "config";
export type ListingListener = (server: string, reason: ListingChangeReason) => void;

export interface CatalogView {
  tools: ToolMetadata[];
  /** Servers whose tools could not be listed, with the reason. */
  unavailable: { server: string; error: string }[];
}

export class AdapterRuntime {
  private currentProblems: ConfigProblem[];
  private readonly manager: ConnectionManager;
  private readonly tools: ToolCatalog;
  private readonly stderr = new StderrTails();
  /** The program this runtime runs in. */
  readonly host: Host;
  private readonly pipeline: CallPipeline;
  private readonly stopStatus: () => void;
  /** OAuth logins (`/mcp-auth`, `auth-start` / `auth-complete`, logout); absent without wiring. */
  readonly oauth?: OAuthWiring;
  private readonly reloadConfig: AdapterRuntimeOptions["reloadConfig"];
  /** The session trace, when `settings.trace.enabled`; `trace.record` takes events from outside the pipeline. */
  readonly trace?: SessionTrace;
  /** Call stats, when `settings.captureStats` is set. */
  readonly stats?: CallStats;
  /** Output shapes of tools mcpScript called, shown by its `tools.describe`. */
  readonly outputShapes: OutputShapes;
  private directSettings: DirectToolSettings;
  /** Listings under way after a list-changed notification (see `catalogSettled`). */
  private readonly relisting = new Set<Promise<void>>();
  private readonly updates = new ResourceUpdates();
  private readonly listingListeners = new Set<ListingListener>();
  private readonly roots: SessionRoots | undefined;
  private readonly stopRoots: () => void;
  /** Token usage of servers' sampling requests in this session (for stats). */
  readonly samplingUsage: SamplingUsage;
  /** The MCP Apps viewer; absent with viewer `none` (UI tools then return their inline result only). */
  readonly ui?: UiViewer;

  constructor(options: AdapterRuntimeOptions) {
    this.currentProblems = options.problems ?? [];
    this.reloadConfig = options.reloadConfig;
    this.oauth = options.oauth && options.trace ? tracedOAuth(options.oauth, options.trace) : options.oauth;
    this.directSettings = options.direct ?? {};
    this.samplingUsage = options.samplingUsage ?? new SamplingUsage();
    // Our own connect (the default one included) so the last connection's stderr stays readable.
    const resolveCommand =
      options.resolveCommand === undefined && options.npxCacheFile
        ? createNpxResolver({ cacheFile: options.npxCacheFile })
        : options.resolveCommand;
    const connect =
      options.connect ??
      ((definition, signal) => connectServer(definition, { ...options, resolveCommand }, signal));
    this.manager = new ConnectionManager(options.servers, {
      ...options,
      connect: this.stderr.track(connect),
    });
    this.tools = new ToolCatalog(
      options.catalog ?? {},
      (name) => this.manager.definition(name),
      (name) => this.manager.get(name),
    );
    this.host = options.host ?? headlessHost();
    // Approval attaches through the host: its dialog only where it has a UI, its bus for brokers.
    const select = this.host.dialogs.select.bind(this.host.dialogs);
    this.pipeline = new CallPipeline({
      ...options.calls,
      serverApproveTools: (name) => this.manager.definition(name)?.approveTools,
      connection: (name) => this.manager.get(name),
      events: this.host.events,
      dialog: this.host.hasUI ? selectApprovalDialog(select) : undefined,
      urlElicitationRequired: (server, name, elicitations, signal) =>
        explainUrlElicitationRequired(
          this.host,
          options.calls?.elicitation !== false,
          server,
          name,
          elicitations,
          signal,
        ),
    });
    this.stopStatus = watchStatus(this, (snapshot) => this.host.status(snapshot));
    this.trace = options.trace;
    this.stats = options.stats;
    this.outputShapes = options.outputShapes ?? new OutputShapes();
    if (this.trace) {
      const trace = this.trace;
      this.pipeline.observe(trace.observer);
      // Connection changes by state only: the error text may quote a URL or the server's output.
      this.manager.on("status", (status) =>
        trace.record({ event: "connect", server: status.name, state: status.state }),
      );
    }
    if (this.stats) this.pipeline.observe(this.stats.observer);
    // A server whose tools, prompts or resources changed is listed again, if this session listed it at all.
    this.manager.on("notification", (server, notification) => {
      if (notification.kind === "resources/updated") {
        this.updates.updated(server, notification.uri);
      } else if (LIST_CHANGED.has(notification.kind) && this.tools.metadata(server)) {
        const relist = this.tools.refresh(server).then(
          () => this.listed(server, "list_changed"),
          () => {},
        );
        this.relisting.add(relist);
        void relist.finally(() => this.relisting.delete(relist));
      }
    });
    this.roots = options.roots;
    this.stopRoots = this.roots?.onChange(() => void this.manager.notifyRootsChanged()) ?? (() => {});
    const ui = resolveUiOptions(options.ui, this.host);
    if (ui.note) this.host.notify(ui.note, "warning");
    if (ui.mode === "browser") {
      this.ui = new UiViewer(
        {
          readResource: async (server, uri, signal) =>
            (await this.manager.get(server)).readResource(uri, { signal }) as never,
          callTool: (server, name, args, signal) => this.callFromApp(server, name, args, signal),
        },
        ui.viewer,
      );
    }
  }

  /** Config problems of the servers as last loaded (shown in status). */
  get problems(): ConfigProblem[] {
    return this.currentProblems;
  }

  /**
   * Makes `servers` the configured list, live: new servers are added,
   * missing ones closed, changed ones (disable/enable included) reconnect;
   * unchanged servers keep their connection and their listing.
   */
  async replace(servers: ServerDefinition[]): Promise<void> {
    const before = new Map(this.manager.names().map((name) => [name, this.manager.definition(name)]));
    await this.manager.replace(servers);
    for (const [name, old] of before) {
      const now = this.manager.definition(name);
      if (!now || !old || definitionHash(now) !== definitionHash(old)) {
        this.tools.forget(name);
        this.listed(name, "config");
      } else if (now.disabled !== old.disabled) {
        // Same definition, switched on or off: the listing stays, what is offered changes.
        this.listed(name, "config");
      }
    }
  }

  /** Reads config again and applies it with `replace` (e.g. after `/mcp-adapter disable`). */
  async reload(): Promise<void> {
    if (!this.reloadConfig) {
      throw new McpAdapterError("reload_unavailable", "This MCP runtime has a fixed server list");
    }
    const { servers, problems, direct } = await this.reloadConfig();
    this.currentProblems = problems;
    if (direct) this.directSettings = direct;
    await this.replace(servers);
  }

  /** A configured server's definition as last loaded (for status screens like the Pi panel); never connects. */
  definition(name: string): ServerDefinition | undefined {
    return this.manager.definition(name);
  }

  servers(): ServerSummary[] {
    return this.manager.status().map((status) => ({
      ...status,
      ...countsOf(this.tools.metadata(status.name)),
      source: this.manager.definition(status.name)?.source.file ?? "",
      instructions: this.tools.instructions(status.name),
    }));
  }

  /** Tool metadata of every enabled server (or one), discovering servers not listed yet. */
  async catalog(server?: string): Promise<CatalogView> {
    const names = server ? [server] : this.manager.names();
    const enabled = names.filter((name) => {
      const definition = this.manager.definition(name);
      if (!definition)
        throw new McpAdapterError("unknown_server", unknownServerMessage(name, this.manager.names()));
      return !definition.disabled;
    });
    const unavailable: CatalogView["unavailable"] = [];
    // Only servers not listed yet need the async round (every call resolves through here).
    const unlisted = enabled.filter((name) => this.tools.metadata(name) === undefined);
    if (unlisted.length === 0) return { tools: this.tools.list(enabled), unavailable };
    await runLimited(unlisted, MAX_PARALLEL_DISCOVERY, async (name) => {
      try {
        await tracedListing(this.trace, name, () => this.tools.ensure(name));
        this.listed(name, "listed");
      } catch (error) {
        unavailable.push({ server: name, error: describeError(error) });
      }
    });
    return { tools: this.tools.list(enabled), unavailable };
  }

  async search(
    query: string,
    options: { server?: string; limit?: number; offset?: number; regex?: boolean } = {},
  ) {
    const view = await this.catalog(options.server);
    const searchKeywords = this.tools.searchKeywords(this.manager.names());
    const result: RankResult = rankTools(query, view.tools, { ...options, searchKeywords });
    return { ...result, unavailable: view.unavailable };
  }

  /** A server's instructions (from its live or cached listing), if it sent any. */
  async instructions(server: string): Promise<string | undefined> {
    const view = await this.catalog(server);
    const failure = view.unavailable[0];
    if (failure)
      throw new McpAdapterError("server_unavailable", `Server ${server} is unavailable: ${failure.error}`);
    return this.tools.instructions(server);
  }

  /** The tool a (possibly misspelled) name refers to; throws with suggestions when none matches. */
  async resolve(name: string, server?: string): Promise<ToolMetadata> {
    const view = await this.catalog(server);
    // Without a server, the exact prefixed name is the common case; a map saves scanning every tool.
    const exact = server === undefined ? findByPrefixedName(view.tools, name) : undefined;
    if (exact) return exact;
    const resolved = resolveToolName(name, view.tools, server);
    if ("match" in resolved) return resolved.match;
    if ("ambiguous" in resolved) {
      const options = resolved.ambiguous.map((t) => `${t.prefixedName} (server ${t.server})`).join(", ");
      throw new McpAdapterError(
        "ambiguous_tool",
        `Tool "${name}" exists on several servers: ${options}. Pass server.`,
      );
    }
    const hint = resolved.suggestions.length
      ? ` Did you mean: ${resolved.suggestions.map((t) => t.prefixedName).join(", ")}?`
      : "";
    const missing = view.unavailable.length
      ? ` (unavailable: ${view.unavailable.map((u) => `${u.server}: ${u.error}`).join("; ")})`
      : "";
    throw new McpAdapterError("unknown_tool", `No MCP tool named "${name}".${hint}${missing}`);
  }

  /** Calls a catalog entry by its (possibly misspelled) name: a tool, or a resource or prompt listed as one. */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: { server?: string; signal?: AbortSignal; origin?: CallOrigin; details?: boolean } = {},
  ): Promise<CallResult> {
    const tool = await this.resolve(name, options.server);
    const result = await this.runPipeline({ ...options, target: { kind: "tool", tool }, args });
    this.showApp(tool, args, result);
    return result;
  }

  /**
   * A UI tool's call opens its app (or updates its open window) in the
   * background: the call's result never waits for, or fails with, the window.
   */
  private showApp(tool: ToolMetadata, args: Record<string, unknown>, result: CallResult): void {
    const resourceUri = tool.ui?.resourceUri;
    if (!this.ui || !resourceUri?.startsWith("ui://") || result.details.approval !== undefined) return;
    const definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    this.ui
      .show({
        serverName: tool.server,
        toolName: tool.name,
        resourceUri,
        args,
        result: appResultOf(result),
        tool: definition,
      })
      .catch((error: unknown) =>
        this.host.notify(
          `MCP App of ${tool.prefixedName} could not open: ${describeError(error)}`,
          "warning",
        ),
      );
  }

  /**
   * A tool call from an MCP App of `server`: the exact tool name, any
   * visibility but model-only, through the call pipeline with origin `ui`.
   */
  private async callFromApp(
    server: string,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<UiToolResult> {
    await this.catalog(server);
    // The full listing: app-only tools are what apps are for.
    const tool = this.tools.metadata(server)?.find((t) => t.kind === "tool" && t.name === name);
    if (!tool) throw new McpAdapterError("unknown_tool", `MCP server "${server}" has no tool "${name}"`);
    if (isHiddenFromApp(tool.ui)) {
      throw new McpAdapterError(
        "not_allowed",
        `The tool "${name}" of "${server}" is for the model only (_meta.ui.visibility); apps cannot call it`,
      );
    }
    return appResultOf(
      await this.pipeline.run({ target: { kind: "tool", tool }, args, origin: "ui", signal }),
    );
  }

  /** The messages MCP Apps sent since the last read (empty without a viewer), and how many were dropped. */
  uiMessages(): { messages: UiMessage[]; dropped: number } {
    return this.ui?.takeMessages() ?? { messages: [], dropped: 0 };
  }

  /**
   * Prompts of every enabled server (or one), listing servers not listed yet;
   * servers that could not be listed are in `unavailable`.
   */
  async prompts(
    server?: string,
  ): Promise<{ prompts: PromptEntry[]; unavailable: CatalogView["unavailable"] }> {
    const view = await this.catalog(server);
    const names = server ? [server] : this.manager.names();
    return { prompts: names.flatMap((name) => this.knownPrompts(name)), unavailable: view.unavailable };
  }

  /** A server's prompts as far as they are known (live or cached listing), without connecting. */
  knownPrompts(server: string): PromptEntry[] {
    if (this.manager.definition(server)?.disabled) return [];
    return promptEntries(server, this.tools.listing(server), this.tools.metadata(server));
  }

  /**
   * Called with a server's name whenever its listing (tools, prompts,
   * resources) is loaded or reloaded — first listing, `list_changed`,
   * reconnect — or its definition changed in config, with the reason.
   * Returns the function that stops it. A throwing listener is ignored.
   */
  onListingChange(listener: ListingListener): () => void {
    this.listingListeners.add(listener);
    return () => this.listingListeners.delete(listener);
  }

  /**
   * `completion/complete` on `server` (connecting it): values for a prompt
   * argument or a template variable. No values when the server offers no completions.
   */
  async complete(
    server: string,
    request: CompletionRequest,
    signal?: AbortSignal,
  ): Promise<CompletionResult> {
    const definition = this.manager.definition(server);
    if (!definition)
      throw new McpAdapterError("unknown_server", unknownServerMessage(server, this.manager.names()));
    if (definition.disabled) return { values: [] };
    const connection = await this.manager.get(server);
    return connection.complete(request, { signal });
  }

  /** Moves the session's roots to `cwd`; connected servers are told their roots changed. */
  setWorkingDirectory(cwd: string): void {
    this.roots?.setWorkingDirectory(cwd);
  }

  /** The session's roots as servers get them (`file://` URIs). */
  rootsList(): { uri: string; name?: string }[] {
    return this.roots?.list() ?? [];
  }

  /**
   * Runs any target through the call pipeline (approval → invoke → output
   * guard → observers): a tool, a resource by URI, a resource template
   * expanded from `args`, or a prompt.
   */
  async run(request: CallRequest): Promise<CallResult> {
    const server = serverOf(request.target);
    const definition = this.manager.definition(server);
    if (!definition)
      throw new McpAdapterError("unknown_server", unknownServerMessage(server, this.manager.names()));
    if (definition.disabled)
      throw new McpAdapterError("server_unavailable", `MCP server "${server}" is disabled`);
    return this.runPipeline(request);
  }

  /** The pipeline, plus what resource reads add: the "changed" note, subscriptions, template suggestions. */
  private async runPipeline(request: CallRequest): Promise<CallResult> {
    const kind = kindOf(request.target);
    if (kind !== "resource" && kind !== "resource-template") return this.pipeline.run(request);
    const server = serverOf(request.target);
    let result: CallResult;
    try {
      result = await this.pipeline.run(request);
    } catch (error) {
      const template = uriTemplateOf(request.target);
      if (!template) throw error;
      throw await withTemplateSuggestions(error, this.openConnection(server), template, request.args);
    }
    if (result.isError || result.details.approval !== undefined) return result;
    const uri = String(result.details.name);
    const changed = this.updates.noteRead(server, uri, this.openConnection(server));
    return changed ? withChangedNote(result, uri) : result;
  }

  /** The server's live connection, if it has one now (never connects). */
  private openConnection(server: string) {
    return this.manager.connection(server);
  }

  private listed(server: string, reason: ListingChangeReason): void {
    for (const listener of [...this.listingListeners]) {
      try {
        listener(server, reason);
      } catch {
        // a listener's bug must not break listing
      }
    }
  }

  /** Adds a call observer (trace, stats); returns the function that removes it. See `CallObserver`. */
  observe(observer: CallObserver): () => void {
    return this.pipeline.observe(observer);
  }

  /** Bounds output that did not come from a server (an mcpScript's result) like any call's result. */
  guardOutput(raw: ToolCallResult, context: { server: string; tool: string }): Promise<CallResult> {
    return this.pipeline.guard(raw, context);
  }

  /** Observer calls that threw or rejected (they never affect a call). */
  get observerFailures(): number {
    return this.pipeline.observerFailures;
  }

  /** Recent stderr of a server with `debug: true` (its latest connection, even if closed); empty for others. */
  debugStderr(name: string): string[] {
    return this.manager.definition(name)?.debug === true ? this.stderr.tail(name) : [];
  }

  /** Connects eager and keep-alive servers in parallel (bounded at 30 s); failures show in status, never throw. */
  start(): Promise<ServerStatus[]> {
    return this.manager.start();
  }

  /** Subscribes to per-server connection status changes; returns the unsubscribe function. */
  onStatus(listener: StatusListener): () => void {
    return this.manager.on("status", listener);
  }

  /** Drops a server's connection and connects afresh, then lists its tools again (updating the cache). */
  async reconnect(name: string): Promise<void> {
    await this.manager.reconnect(name);
    // A reconnect is also how a user refreshes a server's cached tool list.
    await this.tools.refresh(name);
    this.listed(name, "reconnect");
  }

  /** The direct-tool settings of the config as last loaded. */
  get direct(): DirectToolSettings {
    return this.directSettings;
  }

  /**
   * The direct tools of every server whose metadata is known (memory or
   * cache; nothing connects). `reserved`: names the host already uses.
   */
  directTools(
    reserved: Iterable<string> = [],
    /** Metadata for servers this runtime has not listed yet (e.g. the startup snapshot's). */
    known?: (server: string) => readonly ToolMetadata[] | undefined,
  ): DirectToolPlan {
    const servers = this.manager.names().map((name) => ({
      definition: this.manager.definition(name) as ServerDefinition,
      metadata: this.tools.metadata(name) ?? known?.(name),
    }));
    return planDirectTools(servers, this.directSettings, reserved);
  }

  /**
   * Calls a direct tool: the exact prefixed name of `server` (never a fuzzy
   * match: a direct tool that is gone must fail, not call a neighbour),
   * arguments checked first with `strictDirectToolArguments`, through the
   * call pipeline with origin `direct`. `details` never hold `mcpResult`;
   * `directToolResultDetails: "bounded"` keeps `structuredContent` and,
   * for large results, the spilled raw result's summary and file.
   */
  async callDirect(
    name: string,
    server: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<CallResult> {
    const view = await this.catalog(server);
    const tool = findByPrefixedName(view.tools, name);
    if (!tool || tool.server !== server || tool.kind !== "tool") {
      const why = view.unavailable[0] ? `: ${view.unavailable[0].error}` : "";
      throw new McpAdapterError(
        "unknown_tool",
        `MCP server "${server}" no longer offers the tool "${name}"${why}. Search with mcp({ search }) for its current tools.`,
      );
    }
    if (this.directSettings.strictDirectToolArguments) checkArguments(name, tool.inputSchema, args);
    const bounded = this.directSettings.directToolResultDetails === "bounded";
    const result = await this.pipeline.run({
      target: { kind: "tool", tool },
      args,
      origin: "direct",
      signal: options.signal,
      details: bounded,
    });
    this.showApp(tool, args, result);
    // The raw result stays out: the model already has it, and the session file would hold it twice.
    const details: Record<string, unknown> = { ...result.details };
    delete details.mcpResult;
    if (bounded && result.structuredContent !== undefined)
      details.structuredContent = result.structuredContent;
    return { ...result, details };
  }

  /**
   * Resolves once the listings that list-changed notifications
   * started have landed (and listeners ran). A host awaits it before its
   * next model request, so a tool added during the last turn is there.
   */
  async catalogSettled(): Promise<void> {
    while (this.relisting.size) await Promise.all(this.relisting);
  }

  /** Ends every connection and login; the host's status sink gets an empty snapshot last. */
  async shutdown(): Promise<void> {
    this.stopStatus();
    this.stopRoots();
    this.listingListeners.clear();
    await this.ui?.close();
    await this.manager.shutdown();
    await this.pipeline.dispose();
    await this.oauth?.shutdown();
    await this.stats?.flush();
    await this.outputShapes.flush();
    this.trace?.close();
    try {
      this.host.status(emptyStatusSnapshot());
    } catch {
      // a status sink's bug must not break shutdown
    }
  }
}

const LIST_CHANGED = new Set(["tools/list_changed", "prompts/list_changed", "resources/list_changed"]);

/** Tool, resource and prompt counts of a server's metadata; all undefined while it is not listed. */
function countsOf(metadata: ToolMetadata[] | undefined) {
  if (!metadata) return { toolCount: undefined };
  const count = (kind: ToolMetadata["kind"]) => metadata.filter((m) => m.kind === kind).length;
  return { toolCount: count("tool"), resourceCount: count("resource"), promptCount: count("prompt") };
}

/** The URI template a read target expands, if it is a template read. */
function uriTemplateOf(target: CallTarget): string | undefined {
  if (target.kind === "resource-template") return target.uriTemplate;
  return target.kind === "tool" ? target.tool.uriTemplate : undefined;
}

function unknownServerMessage(name: string, known: string[]): string {
  return `Unknown MCP server "${name}" (configured: ${known.join(", ") || "none"})`;
}
