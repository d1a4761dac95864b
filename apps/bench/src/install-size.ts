/**
 * Production install size of the umbrella `pi-mcp-adapter`, as a user gets
 * it: every published workspace package is packed with `npm pack`, then the
 * umbrella tarball is installed into an empty project with `--omit=dev`, its
 * siblings coming from their tarballs (not the registry), third-party
 * dependencies from the registry as the lockfile-free user install resolves
 * them. Reports the size of node_modules (`du -sk`, what `du -sh` shows),
 * the number of packages and the biggest ones.
 *
 * Run on its own: `node --import tsx src/install-size.ts [--keep]`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const UMBRELLA = "pi-mcp-adapter";

export interface InstalledPackage {
  name: string;
  version: string;
  kib: number;
}

export interface InstallSizeResult {
  /** Size of node_modules in KiB, as `du -sk` counts it (disk blocks). */
  kib: number;
  /** Installed packages (every package.json with a name directly under a node_modules folder). */
  packages: number;
  /** Every installed package, biggest first (its own folder, nested node_modules excluded). */
  biggest: InstalledPackage[];
  /** The project the umbrella was installed into (deleted unless `keep`). */
  dir: string;
}

export interface InstallSizeOptions {
  /** Keep the temporary project for inspection. */
  keep?: boolean;
  /** Repository root holding `packages/*` (default: this repository). */
  repo?: string;
}

const du = (path: string, exclude?: string) =>
  Number(
    execFileSync("du", ["-sk", ...(exclude ? [`--exclude=${exclude}`] : []), path], {
      encoding: "utf8",
    }).split("\t")[0],
  );

/** Packs every published package under `packages/` and installs the umbrella from the tarballs with `--omit=dev`. */
export function measureInstallSize(options: InstallSizeOptions = {}): InstallSizeResult {
  const repo = options.repo ?? REPO;
  const dir = mkdtempSync(join(tmpdir(), "pi-mcp-install-size-"));
  const tarballs = join(dir, "tarballs");
  const project = join(dir, "project");
  mkdirSync(tarballs, { recursive: true });
  mkdirSync(project, { recursive: true });
  const published = readdirSync(join(repo, "packages"))
    .map((folder) => JSON.parse(readFileSync(join(repo, "packages", folder, "package.json"), "utf8")))
    .filter((pkg: { private?: boolean }) => !pkg.private)
    .map((pkg: { name: string }) => pkg.name);
  execFileSync(
    "npm",
    ["pack", "--silent", "--pack-destination", tarballs, ...published.flatMap((name) => ["-w", name])],
    {
      cwd: repo,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, npm_config_workspaces_update: "false" },
    },
  );
  const tarballOf = (name: string) => {
    const prefix = `${name.replace(/^@/, "").replace("/", "-")}-`;
    const file = readdirSync(tarballs).find(
      (f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)),
    );
    if (!file) throw new Error(`npm pack left no tarball for ${name} in ${tarballs}`);
    return `file:${join(tarballs, file)}`;
  };
  // The umbrella is the only dependency; overrides point its siblings (at any depth) to their tarballs.
  const siblings = published.filter((name) => name !== UMBRELLA);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify(
      {
        name: "install-size-probe",
        private: true,
        dependencies: { [UMBRELLA]: tarballOf(UMBRELLA) },
        overrides: Object.fromEntries(siblings.map((name) => [name, tarballOf(name)])),
      },
      null,
      2,
    ),
  );
  execFileSync("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: project,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const result = { ...measureNodeModules(join(project, "node_modules")), dir };
  if (!options.keep) rmSync(dir, { recursive: true, force: true });
  return result;
}

/** Size, package count and packages biggest first of an installed node_modules folder. */
export function measureNodeModules(modules: string): Omit<InstallSizeResult, "dir"> {
  const biggest = listPackages(modules).sort((a, b) => b.kib - a.kib);
  return { kib: du(modules), packages: biggest.length, biggest };
}

function listPackages(modules: string): InstalledPackage[] {
  const found: InstalledPackage[] = [];
  const visit = (folder: string) => {
    let pkg: { name?: string; version?: string };
    try {
      pkg = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    } catch {
      return;
    }
    if (!pkg.name) return;
    found.push({ name: pkg.name, version: pkg.version ?? "?", kib: du(folder, "node_modules") });
    scan(join(folder, "node_modules"));
  };
  const scan = (nodeModules: string) => {
    let entries: string[];
    try {
      entries = readdirSync(nodeModules);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.startsWith(".")) continue;
      if (entry.startsWith("@")) {
        for (const scoped of readdirSync(join(nodeModules, entry))) visit(join(nodeModules, entry, scoped));
      } else visit(join(nodeModules, entry));
    }
  };
  scan(modules);
  return found;
}

export function formatInstallSize(r: InstallSizeResult, top = 15): string {
  const mb = (kib: number) => (kib / 1024).toFixed(1);
  return [
    `Production install of ${UMBRELLA} (npm pack + npm install --omit=dev): ${mb(r.kib)} MiB, ${r.packages} packages (target ≤ 25 MB: ${r.kib / 1024 <= 25 ? "met" : "MISSED"})`,
    `  biggest ${top}:`,
    ...r.biggest.slice(0, top).map((p) => `  ${mb(p.kib).padStart(6)} MiB  ${p.name}@${p.version}`),
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = measureInstallSize({ keep: process.argv.includes("--keep") });
  console.log(formatInstallSize(result, process.argv.includes("--all") ? Number.POSITIVE_INFINITY : 15));
  if (process.argv.includes("--keep")) console.log(`  kept: ${result.dir}`);
}
