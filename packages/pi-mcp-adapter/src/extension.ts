/**
 * The Pi extension: registers the `mcp` proxy tool and the `/mcp-adapter`
 * command, and owns one adapter runtime per session.
 *
 * One source serves both Pi lines: only type imports from Pi, and features of
 * the current line (native MCP, project trust) are detected at run time.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import {
  type AdapterRuntime,
  createRuntime,
  formatDebugStderr,
  formatStatus,
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  type RuntimeSource,
  runProxyRequest,
} from "@pi-mcp-adapter/runtime";
import { oauthHooksFor, registerOAuthCommands, runLogoutCommand } from "./oauth-commands.js";
import { PACKAGE_VERSION } from "./package-version.js";
import { piHost } from "./pi-host.js";
import { projectTrustFor } from "./project-trust-bridge.js";
import { runServerToggleCommand } from "./server-toggle-command.js";

export interface McpAdapterOptions {
  /** An extra config file; it outranks every other config file (normal merging still applies). */
  configPath?: string;
  /** A complete config object: an isolated snapshot, never merged with files or imports. */
  config?: unknown;
}

const CONFIG_FLAG = "mcp-config";
const CLIENT = { name: "pi-mcp-adapter", version: PACKAGE_VERSION };

/** Builds the extension factory Pi calls with its API object. */
export function createMcpAdapter(options: McpAdapterOptions = {}): (pi: ExtensionAPI) => void {
  return (pi) => {
    let runtime: Promise<AdapterRuntime> | undefined;
    let runtimeCwd: string | undefined;

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
        runtimeCwd = ctx.cwd;
        runtime = (async () => {
          await previous?.then((r) => r.shutdown()).catch(() => {});
          const created = await createRuntime(source);
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

    const showStatus = async (args: string, ctx: ExtensionContext) => {
      if (await runServerToggleCommand(args, ctx)) return;
      if (await runLogoutCommand(args, ctx, runtimeFor)) return;
      try {
        const r = await runtimeFor(ctx);
        const servers = r.servers();
        const debug = servers.map((s) => formatDebugStderr(s.name, r.debugStderr(s.name))).filter(Boolean);
        ctx.ui.notify([formatStatus(servers, r.problems), ...debug].join("\n"), "info");
      } catch (error) {
        ctx.ui.notify(`pi-mcp-adapter: ${describeError(error)}`, "error");
      }
    };
    pi.registerCommand("mcp-adapter", { description: "MCP adapter: server status", handler: showStatus });
    registerOAuthCommands(pi, runtimeFor);
    // Where Pi has its own MCP support, it owns /mcp; the alias exists only on Pi lines without it.
    if (!hasNativeMcp(pi)) {
      pi.registerCommand("mcp", {
        description: "MCP adapter: server status (alias of /mcp-adapter)",
        handler: showStatus,
      });
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
  };
}

/** Pi 1.x ships built-in MCP and exposes `registerMcpServer`; the 0.7x line has neither. */
export function hasNativeMcp(pi: ExtensionAPI): boolean {
  return typeof (pi as unknown as { registerMcpServer?: unknown }).registerMcpServer === "function";
}

/** The extension Pi loads from this package's manifest. */
export default createMcpAdapter();
