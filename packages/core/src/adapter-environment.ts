/**
 * Where the adapter runs: Pi's agent directory, the user's home, the platform
 * and the clock. A host (the Pi extension, the CLI) builds one with
 * `processEnvironment()` when it starts and hands it down, so the runtime and
 * the commands below it never read `process.env`, `os.homedir()` or
 * `process.platform` for these themselves, and a test hands in its own.
 * Another fact of the machine is added here, as a field with its default in
 * `processEnvironment`.
 */
import os from "node:os";
import path from "node:path";

export interface AdapterEnvironment {
  /** Pi's agent directory: `$PI_CODING_AGENT_DIR` (a leading `~` is the home), else `~/.pi/agent`. */
  readonly agentDir: string;
  /** The user's home directory. */
  readonly home: string;
  readonly platform: NodeJS.Platform;
  /** The clock for policies (expiry, back-off, elapsed time), in milliseconds since the epoch. */
  now(): number;
}

/** What `processEnvironment` reads instead of the process, field by field. */
export interface EnvironmentOverrides extends Partial<AdapterEnvironment> {
  /** The variables `PI_CODING_AGENT_DIR` is read from; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** The environment of this process: each field from `overrides` where given, else from the process. */
export function processEnvironment(overrides: EnvironmentOverrides = {}): AdapterEnvironment {
  const env = overrides.env ?? process.env;
  const home = overrides.home ?? os.homedir();
  const fromEnv = env.PI_CODING_AGENT_DIR;
  const agentDir =
    overrides.agentDir ?? (fromEnv ? expandHome(fromEnv, home) : path.join(home, ".pi", "agent"));
  return {
    agentDir,
    home,
    platform: overrides.platform ?? process.platform,
    now: overrides.now ?? Date.now,
  };
}

/** `~` and a leading `~/` (or `~\`) in a path are the home directory. */
export function expandHome(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/") || value.startsWith("~\\")) return path.join(home, value.slice(2));
  return value;
}
