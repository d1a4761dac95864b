/**
 * The Pi extension: registers the `mcp` proxy tool and the `/mcp-adapter`
 * command, and owns one adapter runtime per session.
 *
 * One source serves both Pi lines: only type imports from Pi, and features of
 * the current line (native MCP, project trust) are detected at run time.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import {
  type AdapterRuntime,
  createRuntime,
  formatDebugStderr,
  formatStatus,
  loadStartupSnapshot,
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  type RuntimeSource,
  runProxyRequest,
  type StartupSnapshot,
} from "@pi-mcp-adapter/runtime";
import { PACKAGE_VERSION } from "../package-version.js";
import { type AdapterSubcommand, registerAdapterCommand } from "./adapter-command.js";
import { logoutSubcommand, oauthHooksFor, registerOAuthCommands } from "./oauth-commands.js";
import { piHost } from "./pi-host.js";
import { projectTrustFor, rememberedProjectTrust } from "./project-trust-bridge.js";
import { PromptCommands, promptsSubcommand } from "./prompt-commands.js";
import { registerScriptTool } from "./script-tool.js";
import { serverToggleSubcommands } from "./server-toggle-command.js";
import { statsSubcommand } from "./stats-command.js";

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
 * registers the proxy tool and commands at once, then resolves when the
 * startup snapshot (config + metadata cache, no server started) is read, so
 * whatever is registered from it is in place before Pi's first model request.
 */
export function createMcpAdapter(options: McpAdapterOptions = {}): (pi: ExtensionAPI) => Promise<void> {
  return (pi) => {
    let runtime: Promise<AdapterRuntime> | undefined;
    let runtimeCwd: string | undefined;
    let snapshot: StartupSnapshot | undefined;
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
        // The snapshot's metadata cache is already read: the session's runtime reuses it.
        if (snapshot?.cwd === ctx.cwd) source.snapshot = snapshot;
        runtimeCwd = ctx.cwd;
        runtime = (async () => {
          await previous?.then((r) => r.shutdown()).catch(() => {});
          const created = await createRuntime(source);
          detachPrompts?.();
          detachPrompts = promptCommands.attach(created);
          // Eager and keep-alive servers connect in the background; failures show in status.
          void created.start().catch(() => {});
          return created;
        })();
      }
      return runtime;
    };

    const shutdown = async () => {
      const current = runtime;
      runtime = undefined;
      runtimeCwd = undefined;
      // The runtime's shutdown ends with an empty status snapshot, also when it was still being created.
      await current?.then((r) => r.shutdown()).catch(() => {});
    };

    pi.registerFlag(CONFIG_FLAG, { description: "MCP config file for pi-mcp-adapter", type: "string" });

    pi.registerTool({
      name: PROXY_TOOL_NAME,
      label: "MCP",
      description: PROXY_TOOL_DESCRIPTION,
      // Plain JSON Schema: both Pi lines accept it, and it avoids a runtime TypeBox import.
      parameters: PROXY_TOOL_PARAMETERS as never,
      async execute(_toolCallId, params, signal, _onUpdate, ctx) {
        const outcome = await runProxyRequest(await runtimeFor(ctx), params as ProxyParams, signal);
        // The older Pi line ignores `isError` in results: throwing marks an error in both.
        if (outcome.isError) {
          throw new Error(
            outcome.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("\n"),
          );
        }
        return { content: outcome.content, details: outcome.details };
      },
    });

    const status: AdapterSubcommand = {
      name: "status",
      args: "",
      summary: "servers, their state, tool counts and config problems",
      run: async (_words, ctx) => {
        const r = await runtimeFor(ctx);
        const servers = r.servers();
        const debug = servers.map((s) => formatDebugStderr(s.name, r.debugStderr(s.name))).filter(Boolean);
        ctx.ui.notify([formatStatus(servers, r.problems), ...debug].join("\n"), "info");
      },
    };
    // The first row answers a bare `/mcp-adapter`.
    const subcommands = [status, ...serverToggleSubcommands(runtimeFor), logoutSubcommand(runtimeFor)];
    subcommands.push(promptsSubcommand(runtimeFor));
    subcommands.push(statsSubcommand(runtimeFor));
    registerAdapterCommand(
      pi,
      "mcp-adapter",
      "MCP adapter: status, enable/disable, logout, prompts",
      subcommands,
    );
    registerOAuthCommands(pi, runtimeFor);
    // Where Pi has its own MCP support, it owns /mcp; the alias exists only on Pi lines without it.
    if (!hasNativeMcp(pi)) {
      registerAdapterCommand(pi, "mcp", "MCP adapter (alias of /mcp-adapter)", subcommands);
    }

    pi.on("session_start", async (_event, ctx) => {
      await shutdown();
      // Not awaited: loading may open a project-server approval dialog, and Pi answers dialogs
      // only once startup is over (in RPC mode an awaited dialog here ends the process).
      void runtimeFor(ctx).then(
        (r) => {
          if (ctx.hasUI && r.problems.length > 0)
            ctx.ui.notify(formatStatus(r.servers(), r.problems), "warning");
        },
        () => {},
      );
    });
    pi.on("session_shutdown", shutdown);

    // Pi flags are not parsed yet while extensions load: the snapshot sees `configPath` only.
    return loadStartupSnapshot({
      cwd: process.cwd(),
      ...(options.config ? { config: options.config } : { configPath: options.configPath }),
      trust: rememberedProjectTrust(),
    }).then(
      (taken) => {
        snapshot = taken;
        promptCommands.fromSnapshot(taken);
        if (taken.config.settings.scriptMode === true) registerScriptTool(pi, runtimeFor);
      },
      // Unreadable config shows up again, with its message, when the session loads it.
      () => {},
    );
  };
}

/** Pi 1.x ships built-in MCP and exposes `registerMcpServer`; the 0.7x line has neither. */
export function hasNativeMcp(pi: ExtensionAPI): boolean {
  return typeof (pi as unknown as { registerMcpServer?: unknown }).registerMcpServer === "function";
}

/** The extension Pi loads from this package's manifest. */
export default createMcpAdapter();
