/**
 * The adapter without Pi, as its hosts (the Pi shell, the CLI) see it: one
 * object per session over three parts with one job each —
 *
 *   servers/  the server set: config as loaded, connections, lifecycle
 *   catalog/  what the servers offer: listing, search, resolve, prompts
 *   calls/    the ways into the one call pipeline
 *
 * — plus the session's trace, stats, OAuth and roots, which it shuts down. No
 * logic of its own: a new operation belongs in a part (a call target, a catalog question).
 */

import type { SessionGrant } from "@pi-mcp-adapter/approval";
import type { ToolChange } from "@pi-mcp-adapter/catalog";
import type { ToolCallResult, ToolMetadata } from "@pi-mcp-adapter/core";
import type {
  CompletionRequest,
  CompletionResult,
  ServerStatus,
  StatusListener,
} from "@pi-mcp-adapter/transport";
import type { UiMessage } from "@pi-mcp-adapter/ui";
import type { CallRequest } from "./calls/call-pipeline.js";
import type { CallResult } from "./calls/call-result.js";
import { type CallOptions, Calls } from "./calls/calls.js";
import { NextTurnNotes } from "./calls/next-turn-notes.js";
import { type ResourceWatch, ResourceWatches, type WatchUpdateListener } from "./calls/resource-watches.js";
import { ToolPins } from "./calls/tool-pins.js";
import type { DirectToolPlan, DirectToolSettings } from "./catalog/direct-tools.js";
import type { PromptEntry } from "./catalog/prompt-catalog.js";
import {
  type CatalogView,
  type ListingListener,
  RuntimeCatalog,
  type SearchOptions,
  type SearchResult,
} from "./catalog/runtime-catalog.js";
import { SamplingUsage } from "./client-features/sampling-usage.js";
import type { ServerToolChanges } from "./format/tool-changes.js";
import { type Host, headlessHost } from "./host.js";
import type { OAuthWiring } from "./oauth/oauth-wiring.js";
import type { CallObserver } from "./observability/call-observers.js";
import { OutputShapes } from "./observability/output-shapes.js";
import { attachObservers } from "./observability/session-observers.js";
import type { CallStats } from "./observability/stats-observer.js";
import { publishEmptyStatus, type ServerSummary, watchStatus } from "./observability/status-events.js";
import type { SessionTrace } from "./observability/trace-observer.js";
import { tracedOAuth } from "./observability/trace-sources.js";
import type { AdapterRuntimeOptions } from "./runtime-options.js";
import { ServerSet } from "./servers/server-set.js";

export class AdapterRuntime {
  private readonly set: ServerSet;
  private readonly tools: RuntimeCatalog;
  private readonly calls: Calls;
  private readonly pins: ToolPins;
  private readonly watchList: ResourceWatches;
  private readonly notes = new NextTurnNotes();
  private readonly stops: (() => void)[] = [];
  /** The program this runtime runs in. */
  readonly host: Host;
  /** OAuth logins (`/mcp-auth`, `auth-start` / `auth-complete`, logout); absent without wiring. */
  readonly oauth?: OAuthWiring;
  /** The session trace, when `settings.trace.enabled`; `trace.record` takes events from outside the pipeline. */
  readonly trace?: SessionTrace;
  /** Call stats, when `settings.captureStats` is set. */
  readonly stats?: CallStats;
  /** Output shapes of tools mcpScript called, shown by its `tools.describe`. */
  readonly outputShapes: OutputShapes;
  /** Token usage of servers' sampling requests in this session (for stats). */
  readonly samplingUsage: SamplingUsage;

  constructor(options: AdapterRuntimeOptions) {
    this.host = options.host ?? headlessHost();
    this.trace = options.trace;
    this.stats = options.stats;
    this.oauth = options.oauth && options.trace ? tracedOAuth(options.oauth, options.trace) : options.oauth;
    this.samplingUsage = options.samplingUsage ?? new SamplingUsage();
    this.outputShapes = options.outputShapes ?? new OutputShapes();
    const reloadConfig = options.reloadConfig;
    this.set = new ServerSet({
      ...options,
      reloadCommand: this.host.reloadCommand,
      // A reload may also change the direct-tool settings, which the catalog keeps.
      reloadConfig: reloadConfig && (() => reloadConfig().then((loaded) => this.loaded(loaded))),
    });
    this.tools = new RuntimeCatalog(
      this.set,
      { ...options.catalog, direct: options.direct },
      options.trace,
      (message) => this.host.notify(message, "warning"),
    );
    this.pins = new ToolPins(options, (message) => this.host.notify(message, "warning"));
    this.calls = new Calls(this.set, this.tools, this.host, options.calls, options.ui, this.pins, this.notes);
    this.watchList = new ResourceWatches(this.set, (server, uri) => this.calls.wasRead(server, uri));
    // An update of a watched resource: a notice now, a line for the model's next turn (never the content).
    this.stops.push(
      this.watchList.onUpdate(({ server, uri }) => {
        this.host.notify(`MCP resource updated: ${server} · ${uri}`, "info");
        this.notes.set(`watch\u0000${server}\u0000${uri}`, watchNote(server, uri));
      }),
    );
    // Every listing a server gives (first, relisted, from the cache) is checked against its pins.
    this.stops.push(
      this.tools.onListingChange((server) => {
        const listing = this.tools.listing(server);
        const definition = this.set.definition(server);
        if (listing && definition) this.pins.observe(definition, listing);
      }),
    );
    this.stops.push(watchStatus(this, (snapshot) => this.host.status(snapshot)));
    attachObservers(options, this.calls, this.set);
    // The session's roots moved (a new working directory): connected servers are told.
    if (options.roots) this.stops.push(options.roots.onChange(() => void this.set.notifyRootsChanged()));
  }

  /** Config problems of the servers as last loaded (shown in status). */
  get problems() {
    return this.set.problems;
  }

  /** The direct-tool settings of the config as last loaded. */
  get direct(): DirectToolSettings {
    return this.tools.direct;
  }

  /** A configured server's definition as last loaded (for status screens like the Pi panel); never connects. */
  definition(name: string) {
    return this.set.definition(name);
  }

  /** Makes `servers` the configured list, live; unchanged servers keep their connection and listing. */
  async replace(servers: AdapterRuntimeOptions["servers"]): Promise<void> {
    this.tools.applied(await this.set.replace(servers));
  }

  /** Reads config again and applies it with `replace` (e.g. after `/mcp-adapter disable`). */
  async reload(): Promise<void> {
    this.tools.applied(await this.set.reload());
  }

  /** Connects eager and keep-alive servers in parallel (bounded at 30 s); failures show in status, never throw. */
  start(): Promise<ServerStatus[]> {
    return this.set.start();
  }

  /** Drops a server's connection and connects afresh, then lists its tools again (updating the cache). */
  async reconnect(name: string): Promise<void> {
    await this.set.reconnect(name);
    await this.tools.relist(name);
  }

  /** Subscribes to per-server connection status changes; returns the unsubscribe function. */
  onStatus(listener: StatusListener): () => void {
    return this.set.onStatus(listener);
  }

  /** Hears each change of a server's running MCP tasks (listed in `servers()`); returns the unsubscribe. */
  onTasksChange(listener: (server: string) => void): () => void {
    return this.set.tasks.onChange(listener);
  }

  /** Recent stderr of a server with `debug: true` (its latest connection, even if closed); empty for others. */
  debugStderr(name: string): string[] {
    return this.set.debugStderr(name);
  }

  /** Every server's status plus what is known without connecting (tool counts, source, instructions). */
  servers(): ServerSummary[] {
    return this.tools.summaries();
  }

  /** A server's tools as known now (memory, else the metadata cache), e.g. for token costs; never connects. */
  knownTools(server: string): Promise<readonly ToolMetadata[] | undefined> {
    return this.tools.known(server);
  }

  /** Tool metadata of every enabled server (or one), discovering servers not listed yet. */
  catalog(server?: string): Promise<CatalogView> {
    return this.tools.view(server);
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    return this.tools.search(query, options);
  }

  /** The tool a (possibly misspelled) name refers to; throws with suggestions when none matches. */
  resolve(name: string, server?: string): Promise<ToolMetadata> {
    return this.tools.resolve(name, server);
  }

  /** A server's instructions (from its live or cached listing), if it sent any. */
  instructions(server: string): Promise<string | undefined> {
    return this.tools.instructions(server);
  }

  /** Prompts of every enabled server (or one); servers that could not be listed are in `unavailable`. */
  prompts(server?: string): Promise<{ prompts: PromptEntry[]; unavailable: CatalogView["unavailable"] }> {
    return this.tools.prompts(server);
  }

  /** A server's prompts as far as they are known (live or cached listing), without connecting. */
  knownPrompts(server: string): PromptEntry[] {
    return this.tools.knownPrompts(server);
  }

  /** `completion/complete` on `server` (connecting it): values for a prompt argument or a template variable. */
  complete(server: string, request: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> {
    return this.tools.complete(server, request, signal);
  }

  /** The direct-tool plan (`reserved`: names the host uses; `known`: e.g. the startup snapshot's metadata). */
  directTools(
    reserved: Iterable<string> = [],
    known?: (server: string) => readonly ToolMetadata[] | undefined,
  ): DirectToolPlan {
    return this.tools.directTools(reserved, known);
  }

  /** Hears each listing (re)load or config change of a server, with the reason; returns the unsubscribe. */
  onListingChange(listener: ListingListener): () => void {
    return this.tools.onListingChange(listener);
  }

  /** Resolves once relistings after list-changed notifications landed (hosts await it before a model request). */
  catalogSettled(): Promise<void> {
    return this.tools.settled();
  }

  /** Every listed server's tools that changed, or are new, since the user accepted them (tool pinning). */
  toolChanges(): ServerToolChanges[] {
    return this.pins.report();
  }

  /** How a listed tool changed since it was accepted, if it did (or is new). */
  toolChange(server: string, tool: string): ToolChange | undefined {
    return this.pins.changeOf(server, tool);
  }

  /** Accepts a server's tools as it lists them now (all, or those named), listing it first if needed; rejects when they could not be saved. */
  async acceptToolChanges(server: string, tools?: readonly string[]): Promise<void> {
    await this.tools.view(server);
    await this.pins.accept(server, tools);
  }

  /** Restores "allow for session" grants a host stored with its session (resume, reload). */
  restoreApprovalGrants(grants: Iterable<unknown>): void {
    this.calls.restoreGrants(grants);
  }

  /** Hears each new "allow for session" grant, to store it with the session; returns the unsubscribe. */
  onApprovalGrant(listener: (grant: SessionGrant) => void): () => void {
    return this.calls.onGrant(listener);
  }

  /** Calls a catalog entry by its (possibly misspelled) name: a tool, or a resource or prompt listed as one. */
  call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallResult> {
    return this.calls.call(name, args, options);
  }

  /** Calls a direct tool by its exact prefixed name of `server` (see `Calls.callDirect`). */
  callDirect(
    name: string,
    server: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<CallResult> {
    return this.calls.callDirect(name, server, args, options);
  }

  /** Runs any target through the call pipeline: a tool, a resource, a resource template or a prompt. */
  run(request: CallRequest): Promise<CallResult> {
    return this.calls.run(request);
  }

  /** Bounds output that did not come from a server (an mcpScript's result) like any call's result. */
  guardOutput(raw: ToolCallResult, context: { server: string; tool: string }): Promise<CallResult> {
    return this.calls.guardOutput(raw, context);
  }

  /** Adds a call observer (trace, stats); returns the function that removes it. See `CallObserver`. */
  observe(observer: CallObserver): () => void {
    return this.calls.observe(observer);
  }

  /** Observer calls that threw or rejected (they never affect a call). */
  get observerFailures(): number {
    return this.calls.observerFailures;
  }

  /** The messages MCP Apps sent since the last read (empty without a viewer), and how many were dropped. */
  uiMessages(): { messages: UiMessage[]; dropped: number } {
    return this.calls.uiMessages();
  }

  /** Watches `uri` on `server` (`resources/subscribe`); throws when the server offers no subscriptions. */
  watch(server: string, uri: string): Promise<ResourceWatch> {
    return this.watchList.watch(server, uri);
  }

  /** Ends a watch; false when there was none. */
  unwatch(server: string, uri: string): Promise<boolean> {
    return this.watchList.unwatch(server, uri);
  }

  /** The session's watches. */
  watches(): ResourceWatch[] {
    return this.watchList.list();
  }

  /** Hears each update of a watched resource (the runtime already shows a notice); returns the unsubscribe. */
  onWatchUpdate(listener: WatchUpdateListener): () => void {
    return this.watchList.onUpdate(listener);
  }

  /**
   * Notes for the model's next turn (changed watched resources, MCP App contexts), one line or
   * block each; empties them. Hosts call it right before a model request (nothing when empty).
   */
  takeTurnNotes(): string[] {
    return this.notes.take();
  }

  /** Ends every connection and login; the host's status sink gets an empty snapshot last. */
  async shutdown(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    await this.watchList.close();
    this.tools.close();
    await this.calls.close();
    await this.set.shutdown();
    await this.calls.dispose();
    await this.pins.close();
    await this.oauth?.shutdown();
    await this.stats?.flush();
    await this.outputShapes.flush();
    await this.tools.indexSaved();
    this.trace?.close();
    publishEmptyStatus((snapshot) => this.host.status(snapshot));
  }

  private loaded<T extends { direct?: DirectToolSettings }>(loaded: T): T {
    if (loaded.direct) this.tools.direct = loaded.direct;
    return loaded;
  }
}

/** The line the model reads about a watched resource that changed. */
export function watchNote(server: string, uri: string): string {
  return `MCP resource changed: ${server} · ${uri} (read it again to see the new content)`;
}
