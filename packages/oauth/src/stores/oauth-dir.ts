/**
 * Where this package keeps files in Pi's agent directory:
 * `<agent dir>/mcp-adapter/oauth` (`PI_CODING_AGENT_DIR` when set, else
 * `~/.pi/agent`) — the encrypted credential files, the keyring's lock files
 * and the record of which store the adapter uses.
 */
import { homedir } from "node:os";
import path from "node:path";

/** `<Pi agent dir>/mcp-adapter/oauth`: `PI_CODING_AGENT_DIR` when set, else `~/.pi/agent`. */
export function defaultEncryptedFileDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const agentDir = env.PI_CODING_AGENT_DIR || path.join(home, ".pi", "agent");
  return path.join(agentDir, "mcp-adapter", "oauth");
}
