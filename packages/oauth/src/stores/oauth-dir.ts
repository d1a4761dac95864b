/**
 * Where this package keeps files in Pi's agent directory:
 * `<agent dir>/mcp-adapter/oauth` (`PI_CODING_AGENT_DIR` when set, a leading
 * `~` read as the home as everywhere else in the adapter, else
 * `~/.pi/agent`) — the encrypted credential files, the keyring's lock files
 * and the record of which store the adapter uses.
 */
import { homedir } from "node:os";
import path from "node:path";
import { processEnvironment } from "@pi-mcp-adapter/core";

/** `<Pi agent dir>/mcp-adapter/oauth`: core's agent directory for these variables. */
export function defaultEncryptedFileDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return path.join(processEnvironment({ env, home }).agentDir, "mcp-adapter", "oauth");
}
