/**
 * Where pi-mcp-adapter 2.x may have saved credentials that this machine can
 * reach now, answered without loading a keyring binding or the login code: a
 * session start on a machine where nothing of 2.x can be read (most servers
 * and containers: no D-Bus session bus, no 2.x credential files) skips the
 * import at once and says nothing.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** 2.x's agent dir: `PI_CODING_AGENT_DIR` (with `~` expanded) or `~/.pi/agent`. */
export function v2AgentDir(env: NodeJS.ProcessEnv): string {
  const configured = env.PI_CODING_AGENT_DIR?.trim();
  if (!configured) return path.join(homedir(), ".pi", "agent");
  if (configured === "~") return homedir();
  if (configured.startsWith("~/")) return path.resolve(homedir(), configured.slice(2));
  return path.resolve(configured);
}

/** 2.x's `encrypted-file` store: one folder per server under this one. */
export function v2EncryptedFileDir(env: NodeJS.ProcessEnv): string {
  return path.join(v2AgentDir(env), "mcp-oauth-encrypted");
}

/** Linux without a D-Bus session bus: the Secret Service, where 2.x's keyring entries are, cannot be reached. */
export function noSessionBus(env: NodeJS.ProcessEnv): boolean {
  if (process.platform !== "linux" || env.DBUS_SESSION_BUS_ADDRESS) return false;
  return !(env.XDG_RUNTIME_DIR && existsSync(path.join(env.XDG_RUNTIME_DIR, "bus")));
}

/** Whether any store 2.x may have used can be read here: its OS keyring, or its encrypted credential files. */
export function v2StoresReachable(env: NodeJS.ProcessEnv): boolean {
  return !noSessionBus(env) || existsSync(v2EncryptedFileDir(env));
}
