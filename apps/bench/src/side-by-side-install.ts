/**
 * Production install of `pi-mcp-adapter` as a user gets it, into an empty
 * project with `npm install --omit=dev`. Ours: `npm pack` of the umbrella and
 * of every workspace package it depends on (directly or not), then the
 * umbrella tarball installed with its siblings as file tarballs (the packed
 * workspace must be built). The reference: `pi-mcp-adapter@<version>` from the
 * npm registry. Reports du of node_modules, the package count and the five
 * largest packages (own files, copies of one name added up).
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export interface InstallResult {
  /** du of node_modules, MB (1024² bytes). */
  mb: number;
  packages: number;
  largest: { name: string; mb: number; copies: number }[];
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
}

/** Workspace package dirs by name. */
function workspacePackages(): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const entry of readdirSync(join(REPO_ROOT, "packages"))) {
    const dir = join(REPO_ROOT, "packages", entry);
    try {
      dirs.set(readManifest(dir).name, dir);
    } catch {
      // not a package
    }
  }
  return dirs;
}

/** The umbrella and every workspace package it reaches through its dependencies (optional and peer ones too). */
function umbrellaClosure(): string[] {
  const workspace = workspacePackages();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    // npm installs optional and peer dependencies too: a sibling reached either way must come from a tarball.
    const m = readManifest(workspace.get(name)!);
    for (const dep of Object.keys({ ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies })) {
      if (workspace.has(dep)) visit(dep);
    }
  };
  visit("pi-mcp-adapter");
  return [...seen].map((name) => workspace.get(name)!);
}

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function emptyProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "install-probe", private: true }));
  return dir;
}

const INSTALL = ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"];

export function measureOurInstall(): InstallResult {
  const packDir = mkdtempSync(join(tmpdir(), "pi-mcp-pack-"));
  const project = emptyProject("pi-mcp-install-ours-");
  try {
    const tarballs = umbrellaClosure().map((dir) => {
      const packed = JSON.parse(npm(["pack", dir, "--json", "--pack-destination", packDir], REPO_ROOT)) as {
        filename: string;
      }[];
      return join(packDir, packed[0]!.filename);
    });
    npm([...INSTALL, ...tarballs], project);
    return measureNodeModules(join(project, "node_modules"));
  } finally {
    rmSync(packDir, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}

export function measureRefInstall(version: string): InstallResult {
  const project = emptyProject("pi-mcp-install-ref-");
  try {
    npm([...INSTALL, `pi-mcp-adapter@${version}`], project);
    return measureNodeModules(join(project, "node_modules"));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function measureNodeModules(dir: string): InstallResult {
  const kib = Number(execFileSync("du", ["-sk", dir], { encoding: "utf8" }).split("\t")[0]);
  const sizes = new Map<string, { bytes: number; copies: number }>();
  for (const pkg of packageDirs(dir)) {
    const name = readManifest(pkg).name;
    const entry = sizes.get(name) ?? { bytes: 0, copies: 0 };
    entry.bytes += ownBytes(pkg);
    entry.copies += 1;
    sizes.set(name, entry);
  }
  const packages = [...sizes.values()].reduce((n, s) => n + s.copies, 0);
  const largest = [...sizes]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, 5)
    .map(([name, s]) => ({ name, mb: s.bytes / 1024 ** 2, copies: s.copies }));
  return { mb: kib / 1024, packages, largest };
}

/** Every installed package directory under a node_modules tree (nested ones too). */
function packageDirs(nodeModules: string): string[] {
  const found: string[] = [];
  const entries = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  for (const entry of entries(nodeModules)) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const dirs = entry.name.startsWith("@")
      ? entries(join(nodeModules, entry.name))
          .filter((e) => e.isDirectory())
          .map((e) => join(nodeModules, entry.name, e.name))
      : [join(nodeModules, entry.name)];
    for (const pkg of dirs) {
      found.push(pkg);
      found.push(...packageDirs(join(pkg, "node_modules")));
    }
  }
  return found;
}

/** Disk use (512-byte blocks, as du counts) of a package's files, without its nested node_modules. */
function ownBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    const stat = lstatSync(path);
    bytes += stat.blocks * 512;
    if (entry.isDirectory()) bytes += ownBytes(path);
  }
  return bytes;
}
