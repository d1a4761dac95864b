/**
 * The packages this repository publishes (every `packages/*` not marked private), with their folder and
 * manifest, and the tarballs the global setup packed for them once per run.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

export const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  homepage?: string;
  repository?: { type?: string; url?: string; directory?: string };
  files?: string[];
  exports?: Record<string, string | { types?: string; import?: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
}

export interface PublishedPackage {
  /** Folder under `packages/`. */
  folder: string;
  dir: string;
  manifest: PackageManifest;
}

export function publishedPackages(): PublishedPackage[] {
  const root = path.join(repoRoot, "packages");
  return readdirSync(root)
    .map((folder) => {
      const dir = path.join(root, folder);
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as PackageManifest;
      return { folder, dir, manifest };
    })
    .filter((p) => !p.manifest.private);
}

export interface PackedTarball {
  name: string;
  /** Absolute path of the `.tgz`. */
  file: string;
  /** Its size in bytes, and the unpacked size npm reports. */
  size: number;
  unpackedSize: number;
  files: string[];
}

declare module "vitest" {
  export interface ProvidedContext {
    packed: PackedTarball[];
    tarballDir: string;
  }
}

/** The tarballs packed by the global setup, by package name. */
export function packedTarballs(): Map<string, PackedTarball> {
  return new Map(inject("packed").map((t) => [t.name, t]));
}

/** The package and every `@pi-mcp-adapter` package it depends on, transitively (as the registry would serve them). */
export function withInternalDependencies(names: string[]): string[] {
  const byName = new Map(publishedPackages().map((p) => [p.manifest.name, p.manifest]));
  const all = new Set<string>();
  const visit = (name: string) => {
    if (all.has(name)) return;
    all.add(name);
    for (const dep of Object.keys(byName.get(name)?.dependencies ?? {})) if (byName.has(dep)) visit(dep);
  };
  for (const name of names) visit(name);
  return [...all];
}
