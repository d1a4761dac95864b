/**
 * The Pi extension: registers the `mcp` proxy tool and the `/mcp-adapter`
 * command, and owns one adapter runtime per session.
 *
 * One source serves both Pi lines: only type imports from Pi, and features of
 * the current line (native MCP, project trust) are detected at run time.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import {
  type AdapterRuntime,
  createRuntime,
  type DirectToolSettings,
  directToolSettings,
  formatStatus,
  loadStartupSnapshot,
  PROXY_TOOL_NAME,
  type ProxyParams,
  type RuntimeSource,
  SCRIPT_TOOL_NAME,
  type StartupSnapshot,
  watchStatus,
} from "@pi-mcp-adapter/runtime";
import { PACKAGE_VERSION } from "../package-version.js";
import { registerAdapterCommand } from "./adapter-command.js";
import { DirectToolRegistrar, PI_TOOL_NAMES } from "./direct-tools.js";
import { FOOTER_STATUS_KEY, footerText, startupNotices } from "./footer-status.js";
import { logoutSubcommand, oauthHooksFor, registerOAuthCommands } from "./oauth-commands.js";
import { panelSubcommand } from "./panel-command.js";
import { piHost } from "./pi-host.js";
import { projectTrustFor, rememberedProjectTrust } from "./project-trust-bridge.js";
import { PromptCommands, promptsSubcommand } from "./prompt-commands.js";
import { runProxy } from "./proxy-run.js";
import { registerProxyTools } from "./proxy-tools.js";
import { reconnectSubcommand } from "./reconnect-command.js";
import { registerScriptTool } from "./script-tool.js";
import { serverToggleSubcommands } from "./server-toggle-command.js";
import { setupSubcommand } from "./setup-command.js";
import { registerStartupDirectTools } from "./startup-direct-tools.js";
import { statsSubcommand } from "./stats-command.js";
import { statusSubcommand } from "./status-command.js";
import { toolsSubcommand } from "./tools-command.js";

export interface McpAdapterOptions {
  /** An extra config file; it outranks every other config file (normal merging still applies). */
  configPath?: string;
  /** A complete config object: an isolated snapshot, never merged with files or imports. */
  config?: unknown;
}

const CONFIG_FLAG = "mcp-config";
const CLIENT = { name: "pi-mcp-adapter", version: PACKAGE_VERSION };

/**
 * Builds the extension factory Pi calls with its API object. The factory
 * registers the commands at once, then reads the startup snapshot (config +
 * metadata cache, no server started) and registers the proxy tool and the
 * direct tools from it before it resolves, so they are in place before Pi's
 * first model request.
 */
export function createMcpAdapter(options: McpAdapterOptions = {}): (pi: ExtensionAPI) => Promise<void> {
  return (pi) => {
    let runtime: Promise<AdapterRuntime> | undefined;
    let runtimeCwd: string | undefined;
    let snapshot: StartupSnapshot | undefined;
    /** The session's runtime once created (for namespace instructions). */
    let live: AdapterRuntime | undefined;
    let direct: DirectToolSettings = {};
    let namespaceProxyNames: string[] = [];
    /** Servers left to list when the session starts (`deferWithMissingMetadata`), and that listing. */
    let deferred: string[] = [];
    let registering: Promise<unknown> | undefined;
    /** Agent runs (user prompts) of this session so far. */
    let agentRuns = 0;
    /** What start-up registered from, per server: a server not listed in the session yet keeps it. */
    let startupMetadata = new Map<string, readonly ToolMetadata[]>();
    /** Display settings (footer, result rows, connect notices) from the startup snapshot's config. */
    let display: StartupSnapshot["config"]["settings"] = {};
    /** Stops the footer following the session's runtime, and clears it. */
    let footerOff: (() => void) | undefined;
    const registrar = new DirectToolRegistrar(pi, {
      runtimeFor: (ctx) => runtimeFor(ctx),
      instructions: (server) =>
        live?.servers().find((s) => s.name === server)?.instructions ??
        snapshot?.servers.find((s) => s.server.name === server)?.listing?.instructions,
      strict: () => direct.strictDirectToolArguments === true,
      render: () => display,
    });
    /** Names a direct tool may not take: Pi's own tools, other extensions' tools, and ours. */
    const reserved = () => [
      ...PI_TOOL_NAMES,
      PROXY_TOOL_NAME,
      SCRIPT_TOOL_NAME,
      ...namespaceProxyNames,
      ...otherToolNames(pi).filter((name) => !registrar.owns(name)),
    ];
    // MCP prompts as /mcp__<server>__<prompt>: from the snapshot first, then from the session's runtime.
    const promptCommands = new PromptCommands(pi, (ctx) => runtimeFor(ctx));
    let detachPrompts: (() => void) | undefined;

    const configPath = (): string | undefined => {
      const flag = pi.getFlag(CONFIG_FLAG);
      return options.configPath ?? (typeof flag === "string" && flag !== "" ? flag : undefined);
    };

    const runtimeFor = (ctx: ExtensionContext): Promise<AdapterRuntime> => {
      if (!runtime || runtimeCwd !== ctx.cwd) {
        const previous = runtime;
        // Dialogs, notices, status snapshots and the approval broker reach Pi through the host.
        const common = { cwd: ctx.cwd, oauth: oauthHooksFor(ctx), host: piHost(pi, ctx), client: CLIENT };
        const source: RuntimeSource = options.config
          ? { ...common, config: options.config }
          : { ...common, configPath: configPath(), trust: projectTrustFor(ctx) };
        // MCP Apps open in the browser (MCP_UI_VIEWER) only where someone can use them: not in print/json mode.
        if (!ctx.hasUI) source.ui = { viewer: "none" };
        // The snapshot's metadata cache is already read: the session's runtime reuses it.
        if (snapshot?.cwd === ctx.cwd) source.snapshot = snapshot;
        runtimeCwd = ctx.cwd;
        runtime = (async () => {
          await previous?.then((r) => r.shutdown()).catch(() => {});
          const created = await createRuntime(source);
          detachPrompts?.();
          detachPrompts = promptCommands.attach(created);
          live = created;
          // The footer follows every status change of this runtime (`mcpFooterStatus`, `showStatusIcon`).
          footerOff?.();
          const stopFooter = watchStatus(created, (s) =>
            ctx.ui.setStatus(FOOTER_STATUS_KEY, footerText(s, display)),
          );
          footerOff = () => {
            stopFooter();
            ctx.ui.setStatus(FOOTER_STATUS_KEY, undefined);
          };
          // Listings that change (list_changed, reconnect, first listing, config) update direct tools.
          created.onListingChange((server, reason) => {
            // A runtime being replaced (new session, other cwd) no longer speaks for the tools.
            if (live !== created) return;
            registrar.sync(created.directTools(reserved(), (name) => startupMetadata.get(name)));
            // A server enabled or edited in config lists again (from the cache when it can).
            if (reason === "config") void created.catalog(server).catch(() => {});
          });
          // Eager and keep-alive servers connect in the background; failures show in status and as notices.
          void created.start().then(
            (started) => {
              if (!ctx.hasUI || live !== created) return;
              const names = new Set(started.map((s) => s.name));
              const summaries = created.servers().filter((s) => names.has(s.name));
              for (const n of startupNotices(summaries, display.notifyOnStartupConnect !== false)) {
                ctx.ui.notify(n.message, n.level);
              }
            },
            () => {},
          );
          return created;
        })();
      }
      return runtime;
    };

    const shutdown = async () => {
      const current = runtime;
      runtime = undefined;
      runtimeCwd = undefined;
      live = undefined;
      footerOff?.();
      footerOff = undefined;
      // The runtime's shutdown ends with an empty status snapshot, also when it was still being created.
      await current?.then((r) => r.shutdown()).catch(() => {});
    };

    pi.registerFlag(CONFIG_FLAG, { description: "MCP config file for pi-mcp-adapter", type: "string" });

    const proxyCall = async (params: ProxyParams, signal: AbortSignal | undefined, ctx: ExtensionContext) =>
      runProxy(await runtimeFor(ctx), registrar, params, signal);

    const registerProxies = (servers: string[]) => {
      namespaceProxyNames = registerProxyTools(pi, direct, servers, proxyCall, display);
    };

    const status = statusSubcommand(runtimeFor, () => registrar.problems);
    const setup = setupSubcommand({ runtimeFor, configPath, inlineConfig: options.config !== undefined });
    // A bare `/mcp-adapter` opens the panel where Pi can draw it (not in RPC or print mode: text status there).
    // `login` is registered with /mcp-auth below, after /mcp-adapter; the panel calls it only when run.
    const panel = panelSubcommand({ runtimeFor, login: (server, ctx) => login(server, ctx), setup, status });
    // The first row answers a bare `/mcp-adapter`.
    const subcommands = [
      panel,
      status,
      toolsSubcommand(runtimeFor),
      ...serverToggleSubcommands(runtimeFor),
      logoutSubcommand(runtimeFor),
      reconnectSubcommand(runtimeFor),
      promptsSubcommand(runtimeFor),
      statsSubcommand(runtimeFor),
      setup,
    ];
    const names = subcommands.map((s) => s.name).join(", ");
    registerAdapterCommand(pi, "mcp-adapter", `MCP adapter: ${names}`, subcommands);
    const login = registerOAuthCommands(pi, runtimeFor);
    // Where Pi has its own MCP support, it owns /mcp; the alias exists only on Pi lines without it.
    if (!hasNativeMcp(pi)) {
      registerAdapterCommand(pi, "mcp", "MCP adapter (alias of /mcp-adapter)", subcommands);
    }

    pi.on("session_start", async (_event, ctx) => {
      await shutdown();
      agentRuns = 0;
      registering = undefined;
      registrar.sessionStarted();
      // Not awaited: loading may open a project-server approval dialog, and Pi answers dialogs
      // only once startup is over (in RPC mode an awaited dialog here ends the process).
      const created = runtimeFor(ctx);
      // Servers deferred at start-up (`deferWithMissingMetadata`) list now; their tools follow a prompt later.
      if (deferred.length) {
        const names = deferred;
        registering = created.then(
          (r) => Promise.all(names.map((name) => r.catalog(name).catch(() => undefined))),
          () => undefined,
        );
      }
      void created.then(
        (r) => {
          if (ctx.hasUI && r.problems.length > 0)
            ctx.ui.notify(formatStatus(r.servers(), r.problems), "warning");
          if (ctx.hasUI && registrar.problems.length > 0)
            ctx.ui.notify(registrar.problems.map((p) => `direct tools: ${p}`).join("\n"), "warning");
        },
        () => {},
      );
    });
    pi.on("session_shutdown", shutdown);
    // A tool a server added during the last turn is registered before the next prompt's request.
    // Deferred servers never hold up the first prompt (that is what deferring means); later ones wait.
    pi.on("before_agent_start", async () => {
      if (agentRuns++ > 0) await registering;
      await live?.catalogSettled();
      return undefined;
    });
    // A call through the proxy or Pi's tool search waits for direct tools still being registered.
    pi.on("tool_call", async (event) => {
      if (registering && (event.toolName === PROXY_TOOL_NAME || event.toolName === "tool_search")) {
        await registering;
      }
      return undefined;
    });

    // Pi flags are not parsed yet while extensions load: the snapshot sees `configPath` only.
    const startupSource = {
      cwd: process.cwd(),
      ...(options.config ? { config: options.config } : { configPath: options.configPath }),
      trust: rememberedProjectTrust(),
    };
    return loadStartupSnapshot(startupSource).then(
      async (taken) => {
        snapshot = taken;
        display = taken.config.settings;
        promptCommands.fromSnapshot(taken);
        if (taken.config.settings.scriptMode === true) registerScriptTool(pi, runtimeFor);
        direct = directToolSettings(taken.config.settings);
        registerProxies(taken.servers.map((s) => s.server.name));
        const startup = await registerStartupDirectTools(taken, direct, registrar, reserved(), {
          ...startupSource,
          client: CLIENT,
        });
        deferred = startup.deferred;
        startupMetadata = startup.metadata;
        if (direct.freezeDirectTools) registrar.freeze();
      },
      // Unreadable config shows up again, with its message, when the session loads it.
      () => registerProxies([]),
    );
  };
}

/** Tools Pi knows now (empty while extensions still load, when Pi cannot list them yet). */
function otherToolNames(pi: ExtensionAPI): string[] {
  try {
    return pi.getAllTools().map((tool) => tool.name);
  } catch {
    return [];
  }
}

/** Pi 1.x ships built-in MCP and exposes `registerMcpServer`; the 0.7x line has neither. */
export function hasNativeMcp(pi: ExtensionAPI): boolean {
  return typeof (pi as unknown as { registerMcpServer?: unknown }).registerMcpServer === "function";
}

/** The extension Pi loads from this package's manifest. */
export default createMcpAdapter();
