/**
 * Turns `npx -y <pkg>` and `npx -p <pkg> <bin>` into the package's real bin in
 * npm's `_npx` cache, so a server runs without the npm parent process (about
 * 100 MB of RSS each). Resolutions are remembered in a JSON file for 24 h,
 * shared by every process: a save merges into the file under core's
 * `withFileLock` (waiting as long as the other shared files do: forty CLI
 * calls at once take turns) and replaces it with `writeFileAtomic`. A save
 * that fails costs only the next lookup, and says why (`onProblem`).
 * Anything unusual falls back to running `npx` as configured.
 */
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { parseNpxArgs } from "./npx-args.js";

export const NPX_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

export interface NpxResolverOptions {
  /** npm's cache folder (the one holding `_npx`). Default: `$npm_config_cache` or `~/.npm`. */
  npmCacheDir?: string;
  /** Where resolutions persist, e.g. `<agent dir>/mcp-npx-cache.json`. Default: memory only. */
  cacheFile?: string;
  now?: () => number;
  /** The platform whose bin shims are looked for (`.cmd` on win32). Default `process.platform`. */
  platform?: NodeJS.Platform;
  /** Hears why a resolution could not be saved to `cacheFile` (the server still starts). */
  onProblem?: (message: string) => void;
}

export type ResolveCommand = (
  command: string,
  args: string[],
) => Promise<{ command: string; args: string[] }>;

interface CacheEntry {
  command: string;
  args: string[];
  resolvedAt: number;
}

async function readEntries(file: string): Promise<Record<string, CacheEntry>> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as { entries?: unknown };
    if (parsed.entries && typeof parsed.entries === "object")
      return parsed.entries as Record<string, CacheEntry>;
  } catch {
    // missing or corrupt: start empty, it is only a cache
  }
  return {};
}

export function defaultNpmCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.npm_config_cache) return env.npm_config_cache;
  if (process.platform === "win32" && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, "npm-cache");
  return path.join(homedir(), ".npm");
}

/** A `resolveCommand` for `connectServer` that bypasses npx when the package is already cached. */
export function createNpxResolver(options: NpxResolverOptions = {}): ResolveCommand {
  const now = options.now ?? Date.now;
  const npmCacheDir = options.npmCacheDir ?? defaultNpmCacheDir();
  let memory: Record<string, CacheEntry> | undefined;

  const load = async (): Promise<Record<string, CacheEntry>> => {
    if (memory) return memory;
    memory = {};
    if (options.cacheFile) memory = await readEntries(options.cacheFile);
    return memory;
  };

  const save = async (key: string, entry: CacheEntry) => {
    const file = options.cacheFile;
    if (!file) return;
    try {
      await withFileLock(file, async () => {
        // Re-read so entries other processes saved meanwhile are kept; expired ones go.
        const entries: Record<string, CacheEntry> = {};
        for (const [k, e] of Object.entries(await readEntries(file))) {
          if (now() - e?.resolvedAt < NPX_CACHE_TTL_MS) entries[k] = e;
        }
        entries[key] = entry;
        await writeFileAtomic(file, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`, {
          mode: 0o600,
        });
      });
    } catch (error) {
      options.onProblem?.(
        `could not remember the npx resolution of ${entry.command} in ${file}: ${(error as Error).message}`,
      );
    }
  };

  return async (command, args) => {
    if (!isNpx(command)) return { command, args };
    const key = JSON.stringify([command, ...args]);
    const entries = await load();
    const hit = entries[key];
    if (hit && now() - hit.resolvedAt < NPX_CACHE_TTL_MS && existsSync(hit.command)) {
      return { command: hit.command, args: hit.args };
    }
    const parsed = parseNpxArgs(args);
    const bin =
      parsed && (await findCachedBin(npmCacheDir, parsed.packageSpec, parsed.bin, options.platform));
    if (!parsed || !bin) return { command, args };
    const resolved = { command: bin, args: parsed.rest };
    entries[key] = { ...resolved, resolvedAt: now() };
    await save(key, entries[key]);
    return resolved;
  };
}

/** True for `npx`, `npx.cmd` and `npx.exe` (any folder). */
export function isNpx(command: string): boolean {
  const base = path.basename(command).toLowerCase();
  return base === "npx" || base === "npx.cmd" || base === "npx.exe";
}

/** Splits `name@version` (scoped names keep their leading `@`). */
export function splitSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  return at < 0 ? { name: spec } : { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/**
 * The executable of `bin` (or the package's default bin) in the newest `_npx`
 * install of the package whose version matches an exact version, if one was asked for.
 */
async function findCachedBin(
  npmCacheDir: string,
  spec: string,
  wantedBin?: string,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const { name, version } = splitSpec(spec);
  const exact = version && /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version) ? version : undefined;
  if (version && !exact && version !== "latest") return undefined; // ranges and tags: let npx decide
  const root = path.join(npmCacheDir, "_npx");
  let installs: string[];
  try {
    installs = await readdir(root);
  } catch {
    return undefined;
  }
  const candidates: { bin: string; mtime: number }[] = [];
  for (const install of installs) {
    const modules = path.join(root, install, "node_modules");
    try {
      const manifest = JSON.parse(await readFile(path.join(modules, name, "package.json"), "utf8")) as {
        version?: string;
        bin?: string | Record<string, string>;
      };
      if (exact && manifest.version !== exact) continue;
      const binName = pickBin(name, manifest.bin, wantedBin);
      if (!binName) continue;
      const binPath = path.join(modules, ".bin", platform === "win32" ? `${binName}.cmd` : binName);
      const info = await stat(binPath);
      candidates.push({ bin: binPath, mtime: info.mtimeMs });
    } catch {
      // not in this install
    }
  }
  candidates.sort((a, b) => b.mtime - a.mtime);
  return candidates[0]?.bin;
}

function pickBin(name: string, bin: string | Record<string, string> | undefined, wanted?: string) {
  const unscoped = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
  if (typeof bin === "string") return !wanted || wanted === unscoped ? unscoped : undefined;
  if (!bin) return undefined;
  const names = Object.keys(bin);
  if (wanted) return names.includes(wanted) ? wanted : undefined;
  if (names.length === 1) return names[0];
  return names.includes(unscoped) ? unscoped : undefined;
}
