/**
 * Packs every published package once per run (what `npm publish` would upload) into a temp dir shared
 * by all test files, and installs the two Pi hosts e2e uses. The tarballs go away after the run.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureHostsInstalled } from "@pi-mcp-adapter/e2e/pi-hosts";
import type { TestProject } from "vitest/node";
import { type PackedTarball, publishedPackages, repoRoot } from "../src/published-packages.js";

export default function setup(project: TestProject): () => void {
  ensureHostsInstalled();
  const tarballDir = mkdtempSync(path.join(tmpdir(), "release-check-"));
  const packed = JSON.parse(
    execFileSync(
      "npm",
      [
        "pack",
        "--json",
        "--loglevel=error",
        "--pack-destination",
        tarballDir,
        ...publishedPackages().flatMap((p) => ["-w", `packages/${p.folder}`]),
      ],
      { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    ),
  ) as { name: string; filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  const tarballs: PackedTarball[] = packed.map((p) => ({
    name: p.name,
    file: path.join(tarballDir, p.filename),
    size: p.size,
    unpackedSize: p.unpackedSize,
    files: p.files.map((f) => f.path),
  }));
  project.provide("packed", tarballs);
  project.provide("tarballDir", tarballDir);
  return () => rmSync(tarballDir, { recursive: true, force: true });
}
