/**
 * The first interactive session after install says, once, where MCP
 * servers are configured and how to add one; a marker in the agent dir
 * (`mcp-adapter/first-run`) keeps it from ever being said again.
 *
 * Only a session with a UI counts (the TUI, `--mode rpc`): print and json
 * mode show nothing and leave no marker, so nothing reaches a script's
 * output or the model, and the first session a person sees still gets it.
 * Only someone with no server configured anywhere (no file, no project
 * server waiting for approval, no registration) is told: a user who has
 * servers already knows where they come from, and `/mcp-adapter status`
 * names each one's file. Either way that first interactive session writes
 * the marker — "once" means the first one, not the first without servers.
 * An agent dir the marker cannot be written to gets no note (else it would
 * come back every session).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type ConfigEnvironment, userConfigFiles } from "@pi-mcp-adapter/config";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { StartupSnapshot } from "@pi-mcp-adapter/runtime/startup";

/** The marker, relative to the agent dir. */
export const FIRST_RUN_MARKER = path.join("mcp-adapter", "first-run");

/**
 * Writes the marker on the first interactive session and, when nothing is
 * configured, shows the note. `snapshot` is the startup snapshot (undefined:
 * it could not be read, so nothing is claimed); `registered`: servers other extensions registered.
 */
export async function firstRunNote(
  ctx: Pick<ExtensionContext, "hasUI" | "ui">,
  environment: AdapterEnvironment,
  snapshot: StartupSnapshot | undefined,
  registered: number,
): Promise<void> {
  if (!ctx.hasUI || !snapshot) return;
  const marker = path.join(environment.agentDir, FIRST_RUN_MARKER);
  try {
    await mkdir(path.dirname(marker), { recursive: true });
    // `wx`: of two sessions starting at once, only the one that wrote the marker speaks.
    await writeFile(marker, `${new Date(environment.now()).toISOString()}\n`, { flag: "wx" });
  } catch {
    return;
  }
  const { config } = snapshot;
  if (config.servers.length > 0 || config.pendingProjectServers.length > 0 || registered > 0) return;
  ctx.ui.notify(firstRunText(environment), "info");
}

/** The note: where config is read from, and the two ways to add a server. */
export function firstRunText(environment: AdapterEnvironment): string {
  const configEnvironment: ConfigEnvironment = { ...environment, env: {} };
  const tilde = (file: string) =>
    file.startsWith(environment.home + path.sep) ? `~${file.slice(environment.home.length)}` : file;
  const files = userConfigFiles(configEnvironment).reverse().map(tilde);
  return [
    "pi-mcp-adapter: no MCP servers configured yet.",
    `Servers are read from ${files.join(", ")}, and a project's .mcp.json and .pi/mcp-adapter.json.`,
    "Add one: /mcp-adapter setup (pick a known server, or import Cursor, Claude, VS Code… configs),",
    "/mcp-adapter add <name> -- <command>, or from a shell: pi-mcp-adapter add <name> -- <command>.",
    "(Shown once.)",
  ].join("\n");
}
