/**
 * The ways into the call pipeline, and what each adds around it: a call by
 * (possibly misspelled) catalog name, a direct tool by its exact name, a
 * call from an MCP App, and any `CallTarget` as is. Resource reads add the
 * "changed since last read" note and template suggestions; a UI tool's call
 * opens its app. A new operation is a new `CallTarget` kind, not a new way in.
 */
import { type SessionGrant, selectApprovalDialog } from "@pi-mcp-adapter/approval";
import { definitionHash } from "@pi-mcp-adapter/config";
import { describeError, isHiddenFromApp, type ToolCallResult, type ToolMetadata } from "@pi-mcp-adapter/core";
import type { UiMessage, UiToolResult, UiViewer } from "@pi-mcp-adapter/ui";
import type { CatalogQuestions } from "../catalog/catalog-questions.js";
import type { Listings } from "../catalog/listings.js";
import { findByPrefixedName } from "../catalog/tool-name-index.js";
import { unavailableMessage } from "../catalog/unavailable-servers.js";
import { explainUrlElicitationRequired } from "../client-features/elicitation-flow.js";
import { RuntimeError } from "../errors.js";
import type { Host } from "../host.js";
import type { CallObserver, CallOrigin } from "../observability/call-observers.js";
import type { ServerSet } from "../servers/server-set.js";
import { CallPipeline, type CallRequest, type CallSettings } from "./call-pipeline.js";
import type { CallDetails, CallResult } from "./call-result.js";
import { type CallTarget, kindOf, serverOf } from "./call-target.js";
import { checkArguments } from "./check-arguments.js";
import type { NextTurnNotes } from "./next-turn-notes.js";
import { oncePerObject } from "./once-per-object.js";
import { repairJsonStringArguments } from "./repair-arguments.js";
import { withChangedNote, withTemplateSuggestions } from "./resource-reads.js";
import { ResourceUpdates } from "./resource-updates.js";
import type { ToolPins } from "./tool-pins.js";
import { appResultOf, appTurns, type RuntimeUiOptions, resolveUiOptions } from "./ui-apps.js";

export interface CallOptions {
  server?: string;
  signal?: AbortSignal;
  origin?: CallOrigin;
  /** Put the raw MCP result (bounded) into `details`. */
  details?: boolean;
  /** A tool call's result as the server sent it, unguarded, in `details.mcpResult` (see `CallRequest.raw`). */
  raw?: boolean;
  /** The host's id of the model's tool call, kept with a task the call starts (`TaskRecord.callId`). */
  callId?: string;
}

/** What calls read of the catalog: names resolve through its questions, listings load and refresh. */
export interface CallCatalog {
  listings: Pick<Listings, "listedLive" | "relist" | "view" | "fullListing">;
  questions: Pick<CatalogQuestions, "resolve" | "direct">;
}

export class Calls {
  private readonly pipeline: CallPipeline;
  private readonly updates = new ResourceUpdates();
  /**
   * The MCP Apps viewer, loaded with the ui package when the first app opens; absent with viewer `none`
   * (UI tools then return their inline result only).
   */
  private readonly openViewer?: () => Promise<UiViewer>;
  private viewerLoad?: Promise<UiViewer>;
  private viewer?: UiViewer;
  private readonly grantListeners = new Set<(grant: SessionGrant) => void>();

  constructor(
    private readonly servers: ServerSet,
    private readonly catalog: CallCatalog,
    private readonly host: Host,
    settings: CallSettings = {},
    ui?: RuntimeUiOptions,
    pins?: ToolPins,
    notes?: NextTurnNotes,
  ) {
    // Asked on every call: hashed once per definition (a changed config brings a new object).
    const hashOf = oncePerObject(definitionHash);
    // Approval attaches through the host: its dialog only where it has a UI, its bus for brokers.
    const select = host.dialogs.select.bind(host.dialogs);
    this.pipeline = new CallPipeline({
      ...settings,
      serverApproveTools: (name) => servers.definition(name)?.approveTools,
      connection: (name) => servers.get(name),
      openConnection: (name) => servers.connection(name),
      tasks: servers.tasks,
      nextConnection: (name) => {
        const definition = servers.definition(name);
        if (servers.closing || !definition || definition.disabled) return undefined;
        return servers.get(name);
      },
      events: host.events,
      dialog: host.hasUI ? selectApprovalDialog(select) : undefined,
      pins,
      definitionHash: (name) => {
        const definition = servers.definition(name);
        return definition ? hashOf(definition) : undefined;
      },
      // Only a listing from the disk cache needs listing again.
      relist: async (name) => {
        if (!catalog.listings.listedLive(name)) await catalog.listings.relist(name);
      },
      onGrant: (grant) => {
        for (const listener of [...this.grantListeners]) listener(grant);
      },
      progress: host.progress?.bind(host),
      urlElicitationRequired: (server, name, elicitations, signal) =>
        explainUrlElicitationRequired(
          host,
          settings.elicitation !== false,
          server,
          name,
          elicitations,
          signal,
        ),
    });
    servers.onNotification((server, notification) => {
      if (notification.kind === "resources/updated") this.updates.updated(server, notification.uri);
    });
    const options = resolveUiOptions(ui, host);
    if (options.note) host.notify(options.note, "warning");
    if (options.mode === "browser") {
      this.openViewer = () =>
        (this.viewerLoad ??= import("@pi-mcp-adapter/ui").then(
          (ui) =>
            (this.viewer = new ui.UiViewer(
              {
                readResource: async (server, uri, signal) =>
                  (await servers.get(server)).readResource(uri, { signal }) as never,
                callTool: (server, name, args, signal) => this.fromApp(server, name, args, signal),
              },
              { ...options.viewer, ...(notes ? appTurns(host, notes, ui.uiMessageTurnText) : {}) },
            )),
        ));
    }
  }

  /** Calls a catalog entry by its (possibly misspelled) name: a tool, or a resource or prompt listed as one. */
  async call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallResult> {
    const tool = await this.catalog.questions.resolve(name, options.server);
    const result = await this.runWithReads({ ...options, target: { kind: "tool", tool }, args });
    this.showApp(tool, args, result);
    return result;
  }

  /**
   * Calls a direct tool: the exact prefixed name of `server` (never a fuzzy
   * match: a direct tool that is gone must fail, not call a neighbour),
   * arguments checked first with `strictDirectToolArguments`, origin `direct`.
   * `details` never hold `mcpResult`; `directToolResultDetails: "bounded"`
   * keeps `structuredContent` and, for large results, the spilled raw result's summary and file.
   */
  async callDirect(
    name: string,
    server: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; callId?: string } = {},
  ): Promise<CallResult> {
    const view = await this.catalog.listings.view(server);
    const tool = findByPrefixedName(view.tools, name);
    if (!tool || tool.server !== server || tool.kind !== "tool") {
      const unavailable = view.unavailable[0];
      if (unavailable) throw new RuntimeError("server_unavailable", unavailableMessage(unavailable));
      throw new RuntimeError(
        "unknown_tool",
        `MCP server "${server}" no longer offers the tool "${name}". Search with mcp({ search }) for its current tools.`,
      );
    }
    const direct = this.catalog.questions.direct;
    // Checked as the pipeline will send them: JSON text for an object or array parsed once.
    if (direct.strictDirectToolArguments)
      checkArguments(name, tool.inputSchema, repairJsonStringArguments(tool.inputSchema, args).args);
    const bounded = direct.directToolResultDetails === "bounded";
    const result = await this.pipeline.run({
      target: { kind: "tool", tool },
      args,
      origin: "direct",
      signal: options.signal,
      details: bounded,
      ...(options.callId ? { callId: options.callId } : {}),
    });
    this.showApp(tool, args, result);
    // The raw result stays out: the model already has it, and the session file would hold it twice.
    const { mcpResult: _raw, ...details }: CallDetails = result.details;
    if (bounded && result.structuredContent !== undefined)
      details.structuredContent = result.structuredContent;
    return { ...result, details };
  }

  /**
   * Runs any target (a tool, a resource by URI, a resource template expanded
   * from `args`, a prompt) on a configured, enabled server.
   */
  async run(request: CallRequest): Promise<CallResult> {
    this.servers.requireEnabled(serverOf(request.target));
    return this.runWithReads(request);
  }

  /** Bounds output that did not come from a server (an mcpScript's result) like any call's result. */
  guardOutput(raw: ToolCallResult, context: { server: string; tool: string }): Promise<CallResult> {
    return this.pipeline.guard(raw, context);
  }

  /** Adds "allow for session" grants a host stored with its session. */
  restoreGrants(grants: Iterable<unknown>): void {
    this.pipeline.gate.restoreGrants(grants);
  }

  /** Hears each new "allow for session" grant; returns the unsubscribe. Listeners must not throw. */
  onGrant(listener: (grant: SessionGrant) => void): () => void {
    this.grantListeners.add(listener);
    return () => this.grantListeners.delete(listener);
  }

  /** Adds a call observer (trace, stats); returns the function that removes it. */
  observe(observer: CallObserver): () => void {
    return this.pipeline.observe(observer);
  }

  /** Observer calls that threw or rejected (they never affect a call). */
  get observerFailures(): number {
    return this.pipeline.observerFailures;
  }

  /** Whether this session read the resource (its subscription then also serves the "changed since" note). */
  wasRead(server: string, uri: string): boolean {
    return this.updates.wasRead(server, uri);
  }

  /** The messages MCP Apps sent since the last read (empty without a viewer), and how many were dropped. */
  uiMessages(): { messages: UiMessage[]; dropped: number } {
    return this.viewer?.takeMessages() ?? { messages: [], dropped: 0 };
  }

  /** Closes app windows and removes the session's binary result files. */
  async close(): Promise<void> {
    await (await this.viewerLoad)?.close();
  }

  dispose(): Promise<void> {
    return this.pipeline.dispose();
  }

  /** The pipeline, plus what resource reads add: the "changed" note, subscriptions, template suggestions. */
  private runWithReads(request: CallRequest): Promise<CallResult> {
    const kind = kindOf(request.target);
    // A tool or prompt call is the pipeline's alone (no async layer of its own on every call).
    if (kind !== "resource" && kind !== "resource-template") return this.pipeline.run(request);
    return this.runRead(request);
  }

  private async runRead(request: CallRequest): Promise<CallResult> {
    const server = serverOf(request.target);
    let result: CallResult;
    try {
      result = await this.pipeline.run(request);
    } catch (error) {
      const template = uriTemplateOf(request.target);
      if (!template) throw error;
      throw await withTemplateSuggestions(error, this.servers.connection(server), template, request.args);
    }
    if (result.isError || result.details.approval !== undefined) return result;
    const uri = result.details.name;
    const changed = this.updates.noteRead(server, uri, this.servers.connection(server));
    return changed ? withChangedNote(result, uri) : result;
  }

  /**
   * A UI tool's call opens its app (or updates its open window) in the
   * background: the call's result never waits for, or fails with, the window.
   */
  private showApp(tool: ToolMetadata, args: Record<string, unknown>, result: CallResult): void {
    const resourceUri = tool.ui?.resourceUri;
    if (!this.openViewer || !resourceUri?.startsWith("ui://") || result.details.approval !== undefined)
      return;
    const definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
    this.openViewer()
      .then((viewer) =>
        viewer.show({
          serverName: tool.server,
          toolName: tool.name,
          resourceUri,
          args,
          result: appResultOf(result),
          tool: definition,
        }),
      )
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
  private async fromApp(
    server: string,
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<UiToolResult> {
    // The full listing: app-only tools are what apps are for.
    const tool = (await this.catalog.listings.fullListing(server)).find(
      (t) => t.kind === "tool" && t.name === name,
    );
    if (!tool) throw new RuntimeError("unknown_tool", `MCP server "${server}" has no tool "${name}"`);
    if (isHiddenFromApp(tool.ui)) {
      throw new RuntimeError(
        "not_allowed",
        `The tool "${name}" of "${server}" is for the model only (_meta.ui.visibility); apps cannot call it`,
      );
    }
    return appResultOf(
      await this.pipeline.run({ target: { kind: "tool", tool }, args, origin: "ui", signal }),
    );
  }
}

/** The URI template a read target expands, if it is a template read. */
function uriTemplateOf(target: CallTarget): string | undefined {
  if (target.kind === "resource-template") return target.uriTemplate;
  return target.kind === "tool" ? target.tool.uriTemplate : undefined;
}
