/**
 * Where Pi keeps the packages its settings list (`packages` in
 * `<agent dir>/settings.json` and the project's `.pi/settings.json`), as Pi
 * itself resolves them: npm packages under `<base>/npm/node_modules/<name>`
 * (Pi 0.7x put user-scope ones in npm's global root, which is looked at
 * second), git packages under `<base>/git/<host>/<path>`, local paths
 * relative to the settings file's directory. `<base>` is the agent dir for
 * user settings and the project's `.pi` for project settings. Paths only;
 * nothing here reads a package.
 */
import path from "node:path";
import { expandHome } from "../files/config-sources.js";

export type PackageScope = "user" | "project";

export interface PackageLocationContext {
  scope: PackageScope;
  /** The agent dir (user) or the project's `.pi` (project). */
  baseDir: string;
  home: string;
  /** npm's global `node_modules` (Pi 0.7x's place for user packages), when known. */
  globalNpmRoot?: string;
}

/** Directories the package may be in, most likely first; `undefined` for a source that names no usable place. */
export function packageDirCandidates(source: string, context: PackageLocationContext): string[] | undefined {
  const { baseDir, scope } = context;
  const spec = source.trim();
  if (spec.startsWith("npm:")) {
    const name = /^(@[^@/]+\/[^@/]+|[^@/]+)/.exec(spec.slice(4).trim())?.[1];
    if (!name || name.split("/").some((part) => part === ".." || part === ".")) return undefined;
    const dirs = [path.join(baseDir, "npm", "node_modules", name)];
    if (scope === "user" && context.globalNpmRoot) dirs.push(path.join(context.globalNpmRoot, name));
    return dirs;
  }
  const git = parseGitSource(spec);
  if (git) return [path.join(baseDir, "git", git.host, ...git.path.split("/"))];
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) && !/^[a-z]:[\\/]/i.test(spec)) return undefined;
  return [path.resolve(baseDir, expandHome(spec, context.home))];
}

/** `host` and `owner/repo` of a git source (`git:host/path@ref`, `git@host:path`, `https://host/path.git`). */
export function parseGitSource(source: string): { host: string; path: string } | undefined {
  const prefixed = source.startsWith("git:");
  const url = prefixed ? source.slice(4).trim() : source;
  let host: string;
  let repoPath: string;
  const scp = /^git@([^:]+):(.+)$/.exec(url);
  if (scp) {
    host = scp[1] ?? "";
    repoPath = scp[2] ?? "";
  } else if (/^(https?|ssh|git):\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      host = parsed.hostname;
      repoPath = decodeURIComponent(parsed.pathname).replace(/^\/+/, "");
    } catch {
      return undefined;
    }
  } else if (prefixed) {
    const slash = url.indexOf("/");
    if (slash < 0) return undefined;
    host = url.slice(0, slash);
    repoPath = url.slice(slash + 1);
  } else {
    return undefined;
  }
  repoPath = repoPath
    .replace(/@[^/]*$/, "")
    .replace(/\.git$/, "")
    .replace(/\/+$/, "");
  const parts = repoPath.split("/");
  if (!host || parts.length < 2 || parts.some((p) => !p || p === "." || p === ".." || p.includes("\\"))) {
    return undefined;
  }
  return { host, path: repoPath };
}

/**
 * npm's global `node_modules` without running npm: `$npm_config_prefix` when
 * set, else the prefix of the running Node (`<prefix>/lib/node_modules`, or
 * `<prefix>/node_modules` on Windows).
 */
export function defaultGlobalNpmRoot(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  execPath = process.execPath,
): string {
  const prefix =
    env.npm_config_prefix ??
    env.NPM_CONFIG_PREFIX ??
    (platform === "win32" ? path.dirname(execPath) : path.dirname(path.dirname(execPath)));
  return platform === "win32" ? path.join(prefix, "node_modules") : path.join(prefix, "lib", "node_modules");
}

/** True when `target` is `root` or inside it. */
export function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
