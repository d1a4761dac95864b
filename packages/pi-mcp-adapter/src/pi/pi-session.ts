/**
 * The adapter's state in one Pi process: the runtime for the session's cwd
 * (replaced when the cwd changes), the startup snapshot and the settings
 * read from it, the direct tools, prompt commands and footer that follow
 * the runtime, and the waits that keep a prompt or a proxy call from
 * outrunning tools still being registered. `extension.ts` registers Pi's
 * event handlers; they call the methods here.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { formatProblem, isRegisteredSource } from "@pi-mcp-adapter/config";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { AdapterRuntime, RuntimeSource } from "@pi-mcp-adapter/runtime";
import {
  type DirectToolSettings,
  directToolSettings,
  formatStatus,
  INSTALL_ACTION,
  loadStartupSnapshot,
  PROXY_TOOL_NAME,
  proxyToolDescription,
  SCRIPT_TOOL_NAME,
  type StartupSnapshot,
} from "@pi-mcp-adapter/runtime/startup";
import { PACKAGE_VERSION } from "../package-version.js";
import { activatedOnBranch, recordActivatedTools } from "./activated-tools.js";
import { keepApprovalGrants } from "./approval-grants.js";
import { argvFlagValue } from "./argv-flags.js";
import { DirectToolRegistrar, PI_TOOL_NAMES } from "./direct-tools.js";
import { startupNotices } from "./footer-status.js";
import { installServer } from "./install-server.js";
import { oauthHooksFor } from "./oauth-commands.js";
import { piHost } from "./pi-host.js";
import { projectTrustFor, rememberedProjectTrust } from "./project-trust-bridge.js";
import { PromptCommands } from "./prompt-commands.js";
import { runProxy } from "./proxy-run.js";
import { registerProxyTools } from "./proxy-tools.js";
import { RunningRows, type RunningUpdate } from "./running-rows.js";
import { loadRuntimeModule, runtimeNeededAtStart } from "./runtime-loading.js";
import { registerScriptTool } from "./script-tool.js";
import { ServerRegistrations } from "./server-registrations.js";
import { listDeferred, listRegisteredDirect, otherToolNames } from "./session-listings.js";
import { listBeforeFirstPrompt, registerStartupDirectTools } from "./startup-direct-tools.js";
import { StatusChannels } from "./status-channels.js";
import { followStatusLines } from "./status-lines.js";

export interface McpAdapterOptions {
  /** An extra config file; it outranks every other config file (normal merging still applies). */
  configPath?: string;
  /** A complete config object: an isolated snapshot, never merged with files or imports. */
  config?: unknown;
}

/** Pi's `--mcp-config <file>` flag. */
export const CONFIG_FLAG = "mcp-config";
const CLIENT = { name: "pi-mcp-adapter", version: PACKAGE_VERSION };

export class PiSession {
  private runtime: Promise<AdapterRuntime> | undefined;
  private runtimeCwd: string | undefined;
  private snapshot: StartupSnapshot | undefined;
  /** The session's runtime once created (for namespace instructions). */
  private live: AdapterRuntime | undefined;
  private direct: DirectToolSettings = {};
  private namespaceProxyNames: string[] = [];
  /** Servers left to list when the session starts (`deferWithMissingMetadata`), and that listing. */
  private deferred: string[] = [];
  /** Servers without cached metadata that the session lists before its first prompt. */
  private listFirst: string[] = [];
  private registering: Promise<unknown> | undefined;
  /** Agent runs (user prompts) of this session so far. */
  private agentRuns = 0;
  /** The session whose runtime waits for the first model request (see `sessionStarted`). */
  private waiting: ExtensionContext | undefined;
  /** The search warm-up was started (at the first model request; once per session). */
  private warmingUp = false;
  /** What start-up registered from, per server: a server not listed in the session yet keeps it. */
  private startupMetadata = new Map<string, readonly ToolMetadata[]>();
  /** Display settings (footer, result rows, connect notices) from the startup snapshot's config. */
  private display: StartupSnapshot["config"]["settings"] = {};
  /** Stops the footer following the session's runtime, and clears it. */
  private footerOff: (() => void) | undefined;
  private detachPrompts: (() => void) | undefined;
  private readonly registrar: DirectToolRegistrar;
  /** Servers other extensions registered (Pi's API, the event bus), and the last application of a change. */
  private readonly registrations: ServerRegistrations;
  private applying: Promise<void> | undefined;
  private readonly statusChannels: StatusChannels;
  // MCP prompts as /mcp__<server>__<prompt>: from the snapshot first, then from the session's runtime.
  private readonly promptCommands: PromptCommands;
  /** Rows of proxy calls running now, which progress and task status reach. */
  private readonly rows = new RunningRows();

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly options: McpAdapterOptions,
  ) {
    this.registrar = new DirectToolRegistrar(pi, {
      runtimeFor: (ctx) => this.runtimeFor(ctx),
      instructions: (server) =>
        this.live?.listings.summaries().find((s) => s.name === server)?.instructions ??
        this.snapshot?.servers.find((s) => s.server.name === server)?.listing?.instructions,
      strict: () => this.direct.strictDirectToolArguments === true,
      render: () => this.display,
      activated: (names) => recordActivatedTools(pi, names),
      running: (target, update, ctx, call) =>
        this.rows.during(
          ctx.hasUI ? target : undefined,
          update as ((partial: RunningUpdate) => void) | undefined,
          call,
        ),
    });
    this.promptCommands = new PromptCommands(pi, (ctx) => this.runtimeFor(ctx));
    this.registrations = new ServerRegistrations(pi, () => this.applyRegistrations());
    this.statusChannels = new StatusChannels(pi, (server) => this.registrar.countOf(server));
  }

  /**
   * The config file: the SDK's `configPath`, else Pi's `--mcp-config` flag (read from the
   * process's arguments while Pi has not parsed its flags yet, i.e. for the startup snapshot).
   */
  configPath(): string | undefined {
    const flag = this.pi.getFlag(CONFIG_FLAG);
    const parsed = typeof flag === "string" && flag !== "" ? flag : undefined;
    return this.options.configPath ?? parsed ?? argvFlagValue(process.argv, CONFIG_FLAG);
  }

  /** The last direct-tool plan: what it could not register (collisions, unknown names), what "auto" decided. */
  lastDirectPlan(): Pick<DirectToolRegistrar, "problems" | "auto"> {
    return this.registrar;
  }

  /** The runtime for `ctx.cwd`: made on first use, and made afresh (the old one shut down) for another cwd. */
  runtimeFor(ctx: ExtensionContext): Promise<AdapterRuntime> {
    this.waiting = undefined;
    if (!this.runtime || this.runtimeCwd !== ctx.cwd) {
      const previous = this.runtime;
      const source = this.runtimeSource(ctx);
      this.runtimeCwd = ctx.cwd;
      this.runtime = this.replaceRuntime(previous, source, ctx);
    }
    return this.runtime;
  }

  /** The runtime for `ctx.cwd` if it has been made (never makes one). */
  madeRuntime(ctx: ExtensionContext): Promise<AdapterRuntime> | undefined {
    return this.runtimeCwd === ctx.cwd ? this.runtime : undefined;
  }

  /**
   * Reads the startup snapshot (config + metadata cache, no server started)
   * and registers the proxy tools and the direct tools from it.
   */
  loadStartup(): Promise<void> {
    // Pi parses flags only after extensions load: `--mcp-config` comes from process.argv here.
    const source = {
      cwd: process.cwd(),
      ...(this.options.config ? { config: this.options.config } : { configPath: this.configPath() }),
      trust: rememberedProjectTrust(),
    };
    return loadStartupSnapshot(source).then(
      (taken) => this.registerFromSnapshot(taken),
      // Unreadable config shows up again, with its message, when the session loads it.
      () => this.registerProxies([]),
    );
  }

  /** A session starts (also a new or resumed one in the same process): a fresh runtime for it. */
  async sessionStarted(ctx: ExtensionContext): Promise<void> {
    await this.shutdown();
    this.agentRuns = 0;
    this.registering = undefined;
    this.registrar.sessionStarted(activatedOnBranch(ctx));
    this.registrations.sessionStarted();
    // Unless something needs it before the first model request (runtime-loading.ts), the runtime is
    // made once that request is on its way (`providerRequest`) or at first use: Pi's start loads none of it.
    const pending = {
      deferred: this.deferred,
      listFirst: this.listFirst,
      registrations: this.registrations.list(),
    };
    if (!runtimeNeededAtStart(ctx, this.snapshot, pending)) {
      this.waiting = ctx;
      return;
    }
    // Not awaited: loading may open a project-server approval dialog, and Pi answers dialogs
    // only once startup is over (in RPC mode an awaited dialog here ends the process).
    const created = this.runtimeFor(ctx);
    // Servers deferred at start-up (`deferWithMissingMetadata`) list now; their tools follow a prompt later.
    if (this.deferred.length) this.registering = listDeferred(created, this.deferred);
    // Uncached servers with direct tools and registered servers that ask for them list now,
    // in this runtime (started once), so the first prompt declares them.
    const registered = this.registrations.list().length > 0 ? listRegisteredDirect(created) : undefined;
    this.applying = Promise.all([listBeforeFirstPrompt(created, this.listFirst), registered]).then(() => {});
    this.noticeProblems(created, ctx);
  }

  /** `/tree` moved to another entry: the `"search"` tools activated on that branch are the active ones. */
  treeNavigated(ctx: ExtensionContext): void {
    this.registrar.branchChanged(activatedOnBranch(ctx));
  }

  /** Shuts the runtime down and clears the footer; the next `runtimeFor` makes a new one. */
  async shutdown(): Promise<void> {
    this.waiting = undefined;
    const current = this.runtime;
    this.runtime = undefined;
    this.runtimeCwd = undefined;
    this.live = undefined;
    this.footerOff?.();
    this.footerOff = undefined;
    // The runtime's shutdown ends with an empty status snapshot, also when it was still being created.
    await current?.then((r) => r.shutdown()).catch(() => {});
  }

  /**
   * A tool a server added during the last turn is registered before the next prompt's request.
   * Deferred servers never hold up the first prompt (that is what deferring means); later ones wait.
   */
  async beforeAgentStart(): Promise<void> {
    if (this.agentRuns++ > 0) await this.registering;
    await this.applying;
    await this.live?.listings.settled();
  }

  /**
   * A model request is about to go out: the first one starts warming search up in idle time
   * (search-warm-up.ts: one server per event-loop turn, after this handler has returned), so
   * the session's first search finds the word vectors read and the search code compiled.
   */
  providerRequest(): void {
    const warmUp = this.warmingUp ? undefined : this.snapshot;
    if (warmUp) this.warmingUp = true;
    if (!warmUp && !this.waiting) return;
    setImmediate(() => {
      // A runtime nobody needed before the first request is made now (see `sessionStarted`).
      if (this.waiting) this.runtimeFor(this.waiting);
      if (warmUp) void loadRuntimeModule().then(({ warmUpSearch }) => warmUpSearch(warmUp));
    });
  }

  /** A call through the proxy or Pi's tool search waits for direct tools still being registered. */
  async beforeToolCall(toolName: string): Promise<void> {
    // A server registered or unregistered a moment ago is applied before any call runs.
    await this.applying;
    if (this.registering && (toolName === PROXY_TOOL_NAME || toolName === "tool_search")) {
      await this.registering;
    }
  }

  private runtimeSource(ctx: ExtensionContext): RuntimeSource {
    // Dialogs, notices, status snapshots and the approval broker reach Pi through the host.
    const common = {
      cwd: ctx.cwd,
      oauth: oauthHooksFor(this.pi, ctx),
      host: piHost(this.pi, ctx, (snapshot) => this.statusChannels.publish(snapshot), this.rows),
      client: CLIENT,
      registrations: () => this.registrations.list(),
    };
    const source: RuntimeSource = this.options.config
      ? { ...common, config: this.options.config }
      : { ...common, configPath: this.configPath(), trust: projectTrustFor(ctx) };
    // MCP Apps open in the browser (MCP_UI_VIEWER) only where someone can use them: not in print/json mode.
    if (!ctx.hasUI) source.ui = { viewer: "none" };
    // The snapshot's metadata cache is already read: the session's runtime reuses it.
    if (this.snapshot?.cwd === ctx.cwd) source.snapshot = this.snapshot;
    return source;
  }

  /**
   * Applies the registrations as they are now to the live runtime (a reload: files and
   * registrations together, then `replace`), one change after another. Registrations
   * that could not be used are told as a warning naming the registering extension.
   */
  private applyRegistrations(): Promise<void> {
    const current = this.runtime;
    if (!current) return Promise.resolve();
    const applied = (this.applying ?? Promise.resolve()).then(async () => {
      const runtime = await current;
      await runtime.reload();
      const own = runtime.servers.problems.filter((p) => p.severity !== "info" && isRegisteredSource(p.file));
      if (runtime.host.hasUI && own.length > 0)
        runtime.host.notify(own.map(formatProblem).join("\n"), "warning");
    });
    this.applying = applied.catch(() => {});
    return this.applying;
  }

  private async replaceRuntime(
    previous: Promise<AdapterRuntime> | undefined,
    source: RuntimeSource,
    ctx: ExtensionContext,
  ): Promise<AdapterRuntime> {
    await previous?.then((r) => r.shutdown()).catch(() => {});
    const { createRuntime } = await loadRuntimeModule();
    const created = await createRuntime(source);
    keepApprovalGrants(this.pi, created, ctx);
    this.detachPrompts?.();
    this.detachPrompts = this.promptCommands.attach(created);
    this.live = created;
    this.followFooter(created, ctx);
    this.followListings(created);
    this.startServers(created, ctx);
    return created;
  }

  /** Config problems and direct tools that could not be registered, as notices once the runtime is made. */
  private noticeProblems(runtime: Promise<AdapterRuntime>, ctx: ExtensionContext): void {
    void runtime.then(
      (r) => {
        if (ctx.hasUI && r.servers.problems.length > 0)
          ctx.ui.notify(formatStatus(r.listings.summaries(), r.servers.problems), "warning");
        if (ctx.hasUI && this.registrar.problems.length > 0)
          ctx.ui.notify(this.registrar.problems.map((p) => `direct tools: ${p}`).join("\n"), "warning");
      },
      () => {},
    );
  }

  /** The footer, the task line and the call rows follow this runtime's status (status-lines.ts). */
  private followFooter(runtime: AdapterRuntime, ctx: ExtensionContext): void {
    this.footerOff?.();
    this.footerOff = followStatusLines(runtime, ctx, () => this.display, this.rows);
  }

  /** Listings that change (list_changed, reconnect, first listing, config) update direct tools. */
  private followListings(runtime: AdapterRuntime): void {
    runtime.listings.onChange((server, reason) => {
      // A runtime being replaced (new session, other cwd) no longer speaks for the tools.
      if (this.live !== runtime) return;
      this.registrar.sync(runtime.catalog.directTools(this.reserved(), (n) => this.startupMetadata.get(n)));
      this.statusChannels.directToolsChanged();
      // A server enabled or edited in config lists again (from the cache when it can).
      if (reason === "config") void runtime.catalog.view(server).catch(() => {});
    });
  }

  /** Eager and keep-alive servers connect in the background; failures show in status and as notices. */
  private startServers(runtime: AdapterRuntime, ctx: ExtensionContext): void {
    void runtime.start().then(
      (started) => {
        if (!ctx.hasUI || this.live !== runtime) return;
        const names = new Set(started.map((s) => s.name));
        const summaries = runtime.listings.summaries().filter((s) => names.has(s.name));
        for (const n of startupNotices(summaries, this.display.notifyOnStartupConnect !== false)) {
          ctx.ui.notify(n.message, n.level);
        }
      },
      () => {},
    );
  }

  private registerFromSnapshot(taken: StartupSnapshot): void {
    this.snapshot = taken;
    this.display = taken.config.settings;
    this.promptCommands.fromSnapshot(taken);
    if (taken.config.settings.scriptMode === true) registerScriptTool(this.pi, (ctx) => this.runtimeFor(ctx));
    this.direct = directToolSettings(taken.config.settings);
    this.registerProxies(taken.servers);
    const startup = registerStartupDirectTools(taken, this.direct, this.registrar, this.reserved());
    this.deferred = startup.deferred;
    this.listFirst = startup.listFirst;
    this.startupMetadata = startup.metadata;
    if (this.direct.freezeDirectTools) this.registrar.freeze();
  }

  /** The proxy tools, `mcp` with the roster of the snapshot's servers (kept for the process; see proxy-tools.ts). */
  private registerProxies(servers: StartupSnapshot["servers"]): void {
    const call: Parameters<typeof registerProxyTools>[3] = async (params, signal, ctx, update) => {
      const runtime = await this.runtimeFor(ctx);
      // Installing asks the user first; without a dialog the runtime refuses and says what to run instead.
      if (params.action === INSTALL_ACTION && ctx.hasUI) return installServer(runtime, params, ctx);
      // A row to draw progress in exists only where someone sees it (not in print and json modes).
      const target = params.tool && ctx.hasUI ? { tool: params.tool, server: params.server } : undefined;
      return this.rows.during(target, update, () => runProxy(runtime, this.registrar, params, signal));
    };
    const names = servers.map((s) => s.server.name);
    const description = proxyToolDescription(servers);
    this.namespaceProxyNames = registerProxyTools(
      this.pi,
      this.direct,
      names,
      call,
      this.display,
      description,
    );
  }

  /** Names a direct tool may not take: Pi's own tools, other extensions' tools, and ours. */
  private reserved(): string[] {
    return [
      ...PI_TOOL_NAMES,
      PROXY_TOOL_NAME,
      SCRIPT_TOOL_NAME,
      ...this.namespaceProxyNames,
      ...otherToolNames(this.pi).filter((name) => !this.registrar.owns(name)),
    ];
  }
}
