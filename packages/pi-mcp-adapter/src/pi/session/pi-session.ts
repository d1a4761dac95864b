/**
 * The adapter's state in one Pi process, in three parts this file wires
 * together: the start-up registration (startup-registration.ts: the snapshot,
 * the proxy, script and direct tools before the first model request), the
 * runtime for the session's cwd (session-runtime.ts) and the turn gates
 * (turn-gates.ts: the waits that keep a prompt or a proxy call from outrunning
 * tools still being registered). `extension.ts` registers Pi's event
 * handlers; they call the methods here.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import type { StartupSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { PromptCommands } from "../commands/prompt-commands.js";
import { runtimeNeededAtStart } from "../host/runtime-loading.js";
import { RunningRows } from "../render/running-rows.js";
import type { DirectToolRegistrar } from "../tools/direct-tools.js";
import { listBeforeFirstPrompt } from "../tools/startup-direct-tools.js";
import { activatedOnBranch } from "./activated-tools.js";
import { type McpAdapterOptions, sessionConfigPath } from "./adapter-options.js";
import { firstRunNote } from "./first-run.js";
import { ServerRegistrations } from "./server-registrations.js";
import { listDeferred, listRegisteredDirect } from "./session-listings.js";
import { SessionRuntime } from "./session-runtime.js";
import { StartupRegistration } from "./startup-registration.js";
import { hasOpenTasks, TaskRecords } from "./task-records.js";
import { TurnGates } from "./turn-gates.js";

export class PiSession {
  private readonly startup: StartupRegistration;
  private readonly runtimes: SessionRuntime;
  private readonly gates: TurnGates;
  /** Servers other extensions registered (Pi's API, the event bus). */
  private readonly registrations: ServerRegistrations;
  private readonly taskRecords: TaskRecords;

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly options: McpAdapterOptions,
    private readonly environment: AdapterEnvironment,
  ) {
    const runtimeFor = (ctx: ExtensionContext) => this.runtimeFor(ctx);
    const configPath = () => this.configPath();
    const live = () => this.runtimes.live;
    // Rows of proxy calls running now, which progress and task status reach.
    const rows = new RunningRows(environment.now);
    // MCP tasks kept with the session, followed again after a restart.
    this.taskRecords = new TaskRecords(pi);
    // MCP prompts as /mcp__<server>__<prompt>: from the snapshot first, then from the session's runtime.
    const promptCommands = new PromptCommands(pi, runtimeFor);
    this.startup = new StartupRegistration(pi, {
      options,
      environment,
      configPath,
      runtimeFor,
      live,
      rows,
      promptCommands,
    });
    this.registrations = new ServerRegistrations(pi, () => this.applyRegistrations());
    this.runtimes = new SessionRuntime(pi, {
      options,
      environment,
      configPath,
      startup: this.startup,
      rows,
      promptCommands,
      registrations: this.registrations,
      taskRecords: this.taskRecords,
      whenFree: () => this.gates.whenFree(),
    });
    this.gates = new TurnGates({ runtimeFor, live, snapshot: () => this.startup.snapshot });
  }

  /**
   * The config file: the SDK's `configPath`, else Pi's `--mcp-config` flag (read from the
   * process's arguments while Pi has not parsed its flags yet, i.e. for the startup snapshot).
   */
  configPath(): string | undefined {
    return sessionConfigPath(this.pi, this.options);
  }

  /** The last direct-tool plan: what it could not register (collisions, unknown names), what "auto" decided. */
  lastDirectPlan(): Pick<DirectToolRegistrar, "problems" | "auto"> {
    return this.startup.registrar;
  }

  /** The runtime for `ctx.cwd`: made on first use, and made afresh (the old one shut down) for another cwd. */
  runtimeFor(ctx: ExtensionContext): Promise<AdapterRuntime> {
    this.gates.stopWaiting();
    return this.runtimes.runtimeFor(ctx);
  }

  /** What start-up read: config and the metadata cache (no server started); `undefined` before `loadStartup`. */
  startupSnapshot(): StartupSnapshot | undefined {
    return this.startup.snapshot;
  }

  /** The runtime for `ctx.cwd` if it has been made (never makes one). */
  madeRuntime(ctx: ExtensionContext): Promise<AdapterRuntime> | undefined {
    return this.runtimes.madeRuntime(ctx);
  }

  /**
   * Reads the startup snapshot (config + metadata cache, no server started)
   * and registers the proxy tools and the direct tools from it.
   */
  loadStartup(): Promise<void> {
    return this.startup.load();
  }

  /** A session starts (also a new or resumed one in the same process): a fresh runtime for it. */
  async sessionStarted(ctx: ExtensionContext): Promise<void> {
    await this.shutdown();
    this.gates.sessionStarted();
    this.startup.registrar.sessionStarted(activatedOnBranch(ctx));
    this.registrations.sessionStarted();
    // An SDK host's inline config is its own business: no note about config files.
    if (this.options.config === undefined) {
      void firstRunNote(ctx, this.environment, this.startup.snapshot, this.registrations.list().length);
    }
    this.taskRecords.sessionStarted(ctx);
    const { deferred, listFirst } = this.startup;
    // Unless something needs it before the first model request (runtime-loading.ts), the runtime is
    // made once that request is on its way (`providerRequest`) or at first use: Pi's start loads none of it.
    const openTasks = hasOpenTasks(ctx);
    const pending = { deferred, listFirst, registrations: this.registrations.list(), openTasks };
    if (!runtimeNeededAtStart(ctx, this.startup.snapshot, pending)) {
      this.gates.waitForFirstRequest(ctx);
      return;
    }
    // Not awaited: loading may open a project-server approval dialog, and Pi answers dialogs
    // only once startup is over (in RPC mode an awaited dialog here ends the process).
    const created = this.runtimeFor(ctx);
    // Servers deferred at start-up (`deferWithMissingMetadata`) list now; their tools follow a prompt later.
    const registering = deferred.length ? listDeferred(created, deferred) : undefined;
    // Uncached servers with direct tools and registered servers that ask for them list now,
    // in this runtime (started once), so the first prompt declares them.
    const registered = this.registrations.list().length > 0 ? listRegisteredDirect(created) : undefined;
    this.gates.startupWork(
      registering,
      Promise.all([listBeforeFirstPrompt(created, listFirst), registered]).then(() => {}),
    );
    this.runtimes.noticeProblems(created, ctx);
  }

  /** `/tree` moved to another entry: the `"search"` tools activated on that branch are the active ones. */
  treeNavigated(ctx: ExtensionContext): void {
    this.startup.registrar.branchChanged(activatedOnBranch(ctx));
  }

  /** Shuts the runtime down and clears the footer; the next `runtimeFor` makes a new one. */
  async shutdown(): Promise<void> {
    this.gates.sessionEnded();
    await this.runtimes.shutdown();
  }

  /** Before a prompt's first request: see `TurnGates.beforeAgentStart`. */
  beforeAgentStart(): Promise<void> {
    return this.gates.beforeAgentStart();
  }

  /** A model request is about to go out: see `TurnGates.providerRequest`. */
  providerRequest(): void {
    this.gates.providerRequest();
  }

  /** The model's response began: see `TurnGates.providerResponded`. */
  providerResponded(): void {
    this.gates.providerResponded();
  }

  /** Before a tool call runs: see `TurnGates.beforeToolCall`. */
  beforeToolCall(toolName: string): Promise<void> {
    return this.gates.beforeToolCall(toolName);
  }

  /** A registration changed: applied to the live runtime after the changes before it (none before one is made). */
  private applyRegistrations(): Promise<void> {
    const work = this.runtimes.registrationsWork();
    return work ? this.gates.afterApplying(work) : Promise.resolve();
  }
}
