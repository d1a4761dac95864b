/**
 * The runtime for the session's working directory: made on first use, made
 * afresh (the old one shut down) when the cwd changes, and shut down with the
 * session. A made runtime reuses the startup snapshot, keeps the approval
 * grants and prompt commands of the session, drives the footer and the
 * direct tools from its status and listings, and starts its eager servers.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { formatProblem, isRegisteredSource } from "@pi-mcp-adapter/config";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { AdapterRuntime, RuntimeSource } from "@pi-mcp-adapter/runtime";
import { formatStatus } from "@pi-mcp-adapter/runtime/startup";
import { PACKAGE_VERSION } from "../../package-version.js";
import { oauthHooksFor } from "../commands/oauth-commands.js";
import type { PromptCommands } from "../commands/prompt-commands.js";
import { piHost } from "../host/pi-host.js";
import { projectTrustFor } from "../host/project-trust-bridge.js";
import { loadRuntimeModule } from "../host/runtime-loading.js";
import type { RunningRows } from "../render/running-rows.js";
import { startupNotices } from "../status/footer-status.js";
import { StatusChannels } from "../status/status-channels.js";
import { followStatusLines } from "../status/status-lines.js";
import type { McpAdapterOptions } from "./adapter-options.js";
import { keepApprovalGrants } from "./approval-grants.js";
import type { ServerRegistrations } from "./server-registrations.js";
import type { StartupState } from "./startup-registration.js";
import type { TaskRecords } from "./task-records.js";

const CLIENT = { name: "pi-mcp-adapter", version: PACKAGE_VERSION };

export interface SessionRuntimeDeps {
  options: McpAdapterOptions;
  environment: AdapterEnvironment;
  configPath(): string | undefined;
  startup: StartupState;
  rows: RunningRows;
  promptCommands: PromptCommands;
  registrations: ServerRegistrations;
  taskRecords: TaskRecords;
  /** Whether the model waits on a tool call now (turn-gates.ts): the runtime's work that can wait, waits. */
  whenFree(): Promise<void> | undefined;
}

export class SessionRuntime {
  private runtime: Promise<AdapterRuntime> | undefined;
  private runtimeCwd: string | undefined;
  /** The session's runtime once created (for namespace instructions). */
  private made: AdapterRuntime | undefined;
  /** Stops the footer following the session's runtime, and clears it. */
  private footerOff: (() => void) | undefined;
  private detachPrompts: (() => void) | undefined;
  private readonly statusChannels: StatusChannels;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly deps: SessionRuntimeDeps,
  ) {
    this.statusChannels = new StatusChannels(pi, (server) => deps.startup.registrar.countOf(server));
  }

  /** The session's runtime once created, whatever its cwd. */
  get live(): AdapterRuntime | undefined {
    return this.made;
  }

  /** The runtime for `ctx.cwd`: made on first use, and made afresh (the old one shut down) for another cwd. */
  runtimeFor(ctx: ExtensionContext): Promise<AdapterRuntime> {
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

  /** Shuts the runtime down and clears the footer; the next `runtimeFor` makes a new one. */
  async shutdown(): Promise<void> {
    const current = this.runtime;
    this.runtime = undefined;
    this.runtimeCwd = undefined;
    this.made = undefined;
    this.footerOff?.();
    this.footerOff = undefined;
    // The runtime's shutdown ends with an empty status snapshot, also when it was still being created.
    await current?.then((r) => r.shutdown()).catch(() => {});
  }

  /**
   * The work that applies the registrations as they are now to the runtime made so far
   * (a reload: files and registrations together, then `replace`); none before one is made.
   * Registrations that could not be used are told as a warning naming the registering extension.
   */
  registrationsWork(): (() => Promise<void>) | undefined {
    const current = this.runtime;
    if (!current) return undefined;
    return async () => {
      const runtime = await current;
      await runtime.reload();
      const problems = runtime.servers.problems.filter(
        (p) => p.severity !== "info" && isRegisteredSource(p.file),
      );
      if (runtime.host.hasUI && problems.length > 0)
        runtime.host.notify(problems.map(formatProblem).join("\n"), "warning");
    };
  }

  /** Config problems and direct tools that could not be registered, as notices once the runtime is made. */
  noticeProblems(runtime: Promise<AdapterRuntime>, ctx: ExtensionContext): void {
    const { registrar } = this.deps.startup;
    void runtime.then(
      (r) => {
        if (ctx.hasUI && r.servers.problems.length > 0)
          ctx.ui.notify(formatStatus(r.listings.summaries(), r.servers.problems), "warning");
        if (ctx.hasUI && registrar.problems.length > 0)
          ctx.ui.notify(registrar.problems.map((p) => `direct tools: ${p}`).join("\n"), "warning");
      },
      () => {},
    );
  }

  private runtimeSource(ctx: ExtensionContext): RuntimeSource {
    const { options, startup } = this.deps;
    // Dialogs, notices, status snapshots and the approval broker reach Pi through the host.
    const common = {
      cwd: ctx.cwd,
      oauth: oauthHooksFor(this.pi, ctx),
      host: piHost(
        this.pi,
        ctx,
        (snapshot) => this.statusChannels.publish(snapshot),
        this.deps.rows,
        this.deps.environment.agentDir,
        this.deps.whenFree,
      ),
      client: CLIENT,
      registrations: () => this.deps.registrations.list(),
      environment: this.deps.environment,
    };
    const source: RuntimeSource = options.config
      ? { ...common, config: options.config }
      : {
          ...common,
          configPath: this.deps.configPath(),
          trust: projectTrustFor(ctx, this.deps.environment.agentDir),
        };
    // MCP Apps open in the browser (MCP_UI_VIEWER) only where someone can use them: not in print/json mode.
    if (!ctx.hasUI) source.ui = { viewer: "none" };
    // The snapshot's metadata cache is already read: the session's runtime reuses it.
    if (startup.snapshot?.cwd === ctx.cwd) source.snapshot = startup.snapshot;
    return source;
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
    this.deps.taskRecords.attach(created, ctx);
    this.detachPrompts?.();
    this.detachPrompts = this.deps.promptCommands.attach(created);
    this.made = created;
    this.followFooter(created, ctx);
    this.followListings(created);
    this.startServers(created, ctx);
    return created;
  }

  /** The footer, the task line and the call rows follow this runtime's status (status-lines.ts). */
  private followFooter(runtime: AdapterRuntime, ctx: ExtensionContext): void {
    this.footerOff?.();
    this.footerOff = followStatusLines(runtime, ctx, () => this.deps.startup.display, this.deps.rows);
  }

  /** Listings that change (list_changed, reconnect, first listing, config) update direct tools. */
  private followListings(runtime: AdapterRuntime): void {
    const { startup } = this.deps;
    runtime.listings.onChange((server, reason) => {
      // A runtime being replaced (new session, other cwd) no longer speaks for the tools.
      if (this.made !== runtime) return;
      startup.registrar.sync(
        runtime.catalog.directTools(startup.reserved(), (name) => startup.metadataOf(name)),
      );
      this.statusChannels.directToolsChanged();
      // A server enabled or edited in config lists again (from the cache when it can).
      if (reason === "config") void runtime.catalog.view(server).catch(() => {});
    });
  }

  /** Eager and keep-alive servers connect in the background; failures show in status and as notices. */
  private startServers(runtime: AdapterRuntime, ctx: ExtensionContext): void {
    void runtime.start().then(
      (started) => {
        if (!ctx.hasUI || this.made !== runtime) return;
        const names = new Set(started.map((s) => s.name));
        const summaries = runtime.listings.summaries().filter((s) => names.has(s.name));
        for (const n of startupNotices(
          summaries,
          this.deps.startup.display.notifyOnStartupConnect !== false,
        )) {
          ctx.ui.notify(n.message, n.level);
        }
      },
      () => {},
    );
  }
}
