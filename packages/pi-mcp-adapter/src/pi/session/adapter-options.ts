/**
 * What a host hands `createMcpAdapter` (an extra config file, or a whole
 * config object), Pi's `--mcp-config` flag, and which config file a session
 * reads from the two. The start-up registration and the session's runtime
 * both ask here, so they never disagree about the file.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import { argvFlagValue } from "../host/argv-flags.js";

export interface McpAdapterOptions {
  /** An extra config file; it outranks every other config file (normal merging still applies). */
  configPath?: string;
  /** A complete config object: an isolated snapshot, never merged with files or imports. */
  config?: unknown;
  /**
   * The agent dir, home, platform and clock the adapter runs with; default this process's
   * (`processEnvironment()`: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), read once when Pi loads it.
   */
  environment?: AdapterEnvironment;
}

/** Pi's `--mcp-config <file>` flag. */
export const CONFIG_FLAG = "mcp-config";

/**
 * The config file: the SDK's `configPath`, else Pi's `--mcp-config` flag (read from the
 * process's arguments while Pi has not parsed its flags yet, i.e. for the startup snapshot).
 */
export function sessionConfigPath(pi: ExtensionAPI, options: McpAdapterOptions): string | undefined {
  const flag = pi.getFlag(CONFIG_FLAG);
  const parsed = typeof flag === "string" && flag !== "" ? flag : undefined;
  return options.configPath ?? parsed ?? argvFlagValue(process.argv, CONFIG_FLAG);
}
