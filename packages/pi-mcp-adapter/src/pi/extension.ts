/**
 * The Pi extension: registers the `mcp` proxy tool and the `/mcp-adapter`
 * command, and hands Pi's session events to the session's state
 * (`session/pi-session.ts`), which owns one adapter runtime per session.
 *
 * One source serves both Pi lines: only type imports from Pi, and features of
 * the current line (native MCP, project trust) are detected at run time.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { processEnvironment } from "@pi-mcp-adapter/core";
import { registerAdapterCommand } from "./commands/adapter-command.js";
import { logoutSubcommand, registerOAuthCommands } from "./commands/oauth-commands.js";
import { promptsSubcommand } from "./commands/prompt-commands.js";
import { reconnectSubcommand } from "./commands/reconnect-command.js";
import { reloadSubcommand } from "./commands/reload-command.js";
import { serverEditSubcommands } from "./commands/server-edit-commands.js";
import { serverToggleSubcommands } from "./commands/server-toggle-command.js";
import { setupSubcommand } from "./commands/setup-command.js";
import { statsSubcommand } from "./commands/stats-command.js";
import { statusSubcommand } from "./commands/status-command.js";
import { taskCancelSubcommand } from "./commands/task-cancel-command.js";
import { toolsSubcommand } from "./commands/tools-command.js";
import { watchSubcommands } from "./commands/watch-command.js";
import { adapterSwitchedOff, DISABLE_FLAG } from "./host/adapter-switch.js";
import { panelSubcommand } from "./panel/panel-command.js";
import { CONFIG_FLAG, type McpAdapterOptions } from "./session/adapter-options.js";
import { PiSession } from "./session/pi-session.js";
import { hasNativeMcp } from "./session/server-registrations.js";
import { registerTurnNotes } from "./session/turn-notes.js";
import { registerMcpSkills } from "./skills/mcp-skills.js";

export type { McpAdapterOptions } from "./session/adapter-options.js";
export { hasNativeMcp } from "./session/server-registrations.js";

/**
 * Builds the extension factory Pi calls with its API object. The factory
 * registers the commands at once, then reads the startup snapshot (config +
 * metadata cache, no server started) and registers the proxy tool and the
 * direct tools from it before it resolves, so they are in place before Pi's
 * first model request.
 */
export function createMcpAdapter(options: McpAdapterOptions = {}): (pi: ExtensionAPI) => Promise<void> {
  return (pi) => {
    pi.registerFlag(CONFIG_FLAG, { description: "MCP config file for pi-mcp-adapter", type: "string" });
    pi.registerFlag(DISABLE_FLAG, { description: "Turn pi-mcp-adapter off for this run", type: "boolean" });
    if (adapterSwitchedOff()) return Promise.resolve();

    // The agent dir, home, platform and clock, read once here and handed to everything below.
    const environment = options.environment ?? processEnvironment();
    const session = new PiSession(pi, options, environment);
    const runtimeFor = (ctx: ExtensionContext) => session.runtimeFor(ctx);

    const status = statusSubcommand(runtimeFor, () => session.lastDirectPlan());
    const setup = setupSubcommand({
      runtimeFor,
      configPath: () => session.configPath(),
      inlineConfig: options.config !== undefined,
      environment,
    });
    // A bare `/mcp-adapter` opens the panel where Pi can draw it (not in RPC or print mode: text status there).
    // `login` is registered with /mcp-auth below, after /mcp-adapter; the panel calls it only when run.
    const panel = panelSubcommand({
      runtimeFor,
      login: (server, ctx) => login(server, ctx),
      setup,
      status,
      environment,
    });
    // The first row answers a bare `/mcp-adapter`.
    const subcommands = [
      panel,
      status,
      toolsSubcommand(runtimeFor),
      ...serverToggleSubcommands(runtimeFor),
      ...serverEditSubcommands({ runtimeFor, inlineConfig: options.config !== undefined, environment }),
      logoutSubcommand(runtimeFor),
      reconnectSubcommand(runtimeFor),
      reloadSubcommand(runtimeFor),
      taskCancelSubcommand(runtimeFor),
      promptsSubcommand(runtimeFor),
      statsSubcommand(runtimeFor),
      ...watchSubcommands(runtimeFor),
      setup,
    ];
    const names = subcommands.map((s) => s.name).join(", ");
    registerAdapterCommand(pi, "mcp-adapter", `MCP adapter: ${names}`, subcommands);
    const login = registerOAuthCommands(pi, runtimeFor);
    // Where Pi has its own MCP support, it owns /mcp; the alias exists only on Pi lines without it.
    if (!hasNativeMcp(pi)) {
      registerAdapterCommand(pi, "mcp", "MCP adapter (alias of /mcp-adapter)", subcommands);
    }

    pi.on("session_start", (_event, ctx) => session.sessionStarted(ctx));
    pi.on("session_tree", (_event, ctx) => session.treeNavigated(ctx));
    pi.on("session_shutdown", () => session.shutdown());
    pi.on("before_agent_start", () => session.beforeAgentStart());
    pi.on("tool_call", (event) => session.beforeToolCall(event.toolName));
    // Watched resources that changed and MCP App contexts reach the model's next turn.
    registerTurnNotes(pi, (ctx) => session.madeRuntime(ctx));
    // MCP skills beside Pi's own: in the system prompt, and loaded by /skill:<name> or the model.
    registerMcpSkills(pi, {
      agentDir: environment.agentDir,
      snapshot: () => session.startupSnapshot(),
      runtimeFor,
      madeRuntime: (ctx) => session.madeRuntime(ctx),
    });
    // Once the first model request has left, search is warmed up while the model answers.
    pi.on("before_provider_request", () => session.providerRequest());
    pi.on("after_provider_response", () => session.providerResponded());

    return session.loadStartup();
  };
}

/** The extension Pi loads from this package's manifest. */
export default createMcpAdapter();
