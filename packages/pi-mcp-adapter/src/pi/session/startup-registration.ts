/**
 * Start-up registration: reads the startup snapshot (config + metadata cache,
 * no server started) once per process and registers from it, before Pi's
 * first model request, the proxy tools, `mcpScript` in script mode, the
 * prompt commands and the direct tools. It keeps what it read — the snapshot,
 * the display and direct-tool settings, the metadata each server registered
 * from — for the session's runtime (session-runtime.ts) to reuse.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { AdapterEnvironment, ToolMetadata } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import {
  type DirectToolSettings,
  directToolSettings,
  INSTALL_ACTION,
  loadStartupSnapshot,
  PROXY_TOOL_NAME,
  proxyToolDescription,
  type StartupSnapshot,
} from "@pi-mcp-adapter/runtime/startup";
import { SCRIPT_TOOL_NAME } from "@pi-mcp-adapter/script/tool";
import type { PromptCommands } from "../commands/prompt-commands.js";
import { rememberedProjectTrust } from "../host/project-trust-bridge.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { RunningRows, RunningUpdate } from "../render/running-rows.js";
import { DirectToolRegistrar, PI_TOOL_NAMES } from "../tools/direct-tools.js";
import { installServer } from "../tools/install-server.js";
import { runProxy } from "../tools/proxy-run.js";
import { registerProxyTools } from "../tools/proxy-tools.js";
import { registerScriptTool } from "../tools/script-tool.js";
import { registerStartupDirectTools } from "../tools/startup-direct-tools.js";
import { recordActivatedTools } from "./activated-tools.js";
import type { McpAdapterOptions } from "./adapter-options.js";
import { otherToolNames } from "./session-listings.js";

/** Display settings (footer, result rows, connect notices) from the startup snapshot's config. */
export type DisplaySettings = StartupSnapshot["config"]["settings"];

/** What the session's runtime reads of start-up: the snapshot it reuses, the settings, the direct tools. */
export interface StartupState {
  readonly snapshot: StartupSnapshot | undefined;
  readonly display: DisplaySettings;
  readonly registrar: DirectToolRegistrar;
  /** Names a direct tool may not take: Pi's own tools, other extensions' tools, and ours. */
  reserved(): string[];
  /** What start-up registered `server`'s direct tools from, while the session has not listed it. */
  metadataOf(server: string): readonly ToolMetadata[] | undefined;
}

export interface StartupRegistrationDeps {
  options: McpAdapterOptions;
  environment: AdapterEnvironment;
  configPath(): string | undefined;
  /** The session's runtime, made on first use (every tool registered here calls through it). */
  runtimeFor: RuntimeFor;
  /** The session's runtime once made (never makes one). */
  live(): AdapterRuntime | undefined;
  /** Rows of proxy calls running now, which progress and task status reach. */
  rows: RunningRows;
  /** MCP prompts as /mcp__<server>__<prompt>: from the snapshot first, then from the session's runtime. */
  promptCommands: PromptCommands;
}

export class StartupRegistration implements StartupState {
  snapshot: StartupSnapshot | undefined;
  display: DisplaySettings = {};
  readonly registrar: DirectToolRegistrar;
  private direct: DirectToolSettings = {};
  private namespaceProxyNames: string[] = [];
  /** Servers left to list when the session starts (`deferWithMissingMetadata`). */
  deferred: string[] = [];
  /** Servers without cached metadata that the session lists before its first prompt. */
  listFirst: string[] = [];
  /** What start-up registered from, per server: a server not listed in the session yet keeps it. */
  private startupMetadata = new Map<string, readonly ToolMetadata[]>();

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly deps: StartupRegistrationDeps,
  ) {
    this.registrar = new DirectToolRegistrar(pi, {
      runtimeFor: deps.runtimeFor,
      instructions: (server) =>
        deps
          .live()
          ?.listings.summaries()
          .find((s) => s.name === server)?.instructions ??
        this.snapshot?.servers.find((s) => s.server.name === server)?.listing?.instructions,
      strict: () => this.direct.strictDirectToolArguments === true,
      render: () => this.display,
      activated: (names) => recordActivatedTools(pi, names),
      running: (target, update, ctx, call) =>
        deps.rows.during(
          ctx.hasUI ? target : undefined,
          update as ((partial: RunningUpdate) => void) | undefined,
          call,
        ),
    });
  }

  /**
   * Reads the startup snapshot (config + metadata cache, no server started)
   * and registers the proxy tools and the direct tools from it.
   */
  load(): Promise<void> {
    // Pi parses flags only after extensions load: `--mcp-config` comes from process.argv here.
    const source = {
      cwd: process.cwd(),
      ...(this.deps.options.config
        ? { config: this.deps.options.config }
        : { configPath: this.deps.configPath() }),
      trust: rememberedProjectTrust(this.deps.environment.agentDir),
      environment: this.deps.environment,
    };
    return loadStartupSnapshot(source).then(
      (taken) => this.registerFromSnapshot(taken),
      // Unreadable config shows up again, with its message, when the session loads it.
      () => this.registerProxies([]),
    );
  }

  metadataOf(server: string): readonly ToolMetadata[] | undefined {
    return this.startupMetadata.get(server);
  }

  reserved(): string[] {
    return [
      ...PI_TOOL_NAMES,
      PROXY_TOOL_NAME,
      SCRIPT_TOOL_NAME,
      ...this.namespaceProxyNames,
      ...otherToolNames(this.pi).filter((name) => !this.registrar.owns(name)),
    ];
  }

  private registerFromSnapshot(taken: StartupSnapshot): void {
    this.snapshot = taken;
    this.display = taken.config.settings;
    this.deps.promptCommands.fromSnapshot(taken);
    if (taken.config.settings.scriptMode === true) registerScriptTool(this.pi, this.deps.runtimeFor);
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
    const call: Parameters<typeof registerProxyTools>[3] = async (params, signal, ctx, update, callId) => {
      const runtime = await this.deps.runtimeFor(ctx);
      // Installing asks the user first; without a dialog the runtime refuses and says what to run instead.
      if (params.action === INSTALL_ACTION && ctx.hasUI)
        return installServer(runtime, params, ctx, this.deps.environment);
      // A row to draw progress in exists only where someone sees it (not in print and json modes).
      const target = params.tool && ctx.hasUI ? { tool: params.tool, server: params.server } : undefined;
      return this.deps.rows.during(target, update, () =>
        runProxy(runtime, this.registrar, params, signal, callId),
      );
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
}
