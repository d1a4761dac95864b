/** Where config files live. Paths only; nothing here reads a file. */
import path from "node:path";
import { expandHome, processEnvironment } from "@pi-mcp-adapter/core";

export { expandHome };

export interface ConfigEnvironment {
  /** The user's home directory (default `os.homedir()`). */
  home: string;
  /** Pi's agent directory: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir: string;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
}

/** Config's view of the host's environment (core's `processEnvironment`), with the variables it reads. */
export function defaultConfigEnvironment(overrides: Partial<ConfigEnvironment> = {}): ConfigEnvironment {
  const env = overrides.env ?? process.env;
  const { home, agentDir, platform } = processEnvironment({ ...overrides, env });
  return { home, agentDir, platform, env };
}

/** The adapter's own file in Pi's agent dir (Pi's own `mcp.json` there is never read). */
export const AGENT_CONFIG_FILE = "mcp-adapter.json";
/** The shared project file. */
export const PROJECT_CONFIG_FILE = ".mcp.json";
/** The adapter's project override, relative to the project directory. */
export const PROJECT_OVERRIDE_FILE = path.join(".pi", "mcp-adapter.json");

/** The four user-level sources, lowest precedence first. */
export function userConfigFiles(environment: ConfigEnvironment): string[] {
  const { home, agentDir } = environment;
  return [
    path.join(home, ".config", "mcp", "mcp.json"),
    path.join(home, ".agents", "mcp.json"),
    path.join(home, ".agents", "mcp", "mcp.json"),
    path.join(agentDir, AGENT_CONFIG_FILE),
  ];
}

/** The two project sources of one directory, lower precedence first. */
export function projectConfigFiles(dir: string): string[] {
  return [path.join(dir, PROJECT_CONFIG_FILE), path.join(dir, PROJECT_OVERRIDE_FILE)];
}

/**
 * Ancestor directories of `cwd` (nearest last) whose project files may be
 * read: only those at or below one of `roots`. No roots, no ancestors.
 */
export function ancestorDirs(cwd: string, roots: readonly string[], home: string): string[] {
  const resolvedRoots = roots.map((root) => path.resolve(expandHome(root, home)));
  const dirs: string[] = [];
  let dir = path.dirname(path.resolve(cwd));
  let previous = path.resolve(cwd);
  while (dir !== previous) {
    if (resolvedRoots.some((root) => isInside(dir, root))) dirs.unshift(dir);
    previous = dir;
    dir = path.dirname(dir);
  }
  return dirs;
}

function isInside(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
