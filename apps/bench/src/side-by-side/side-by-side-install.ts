/**
 * Production install of `pi-mcp-adapter` as a user gets it, with
 * `npm install --omit=dev` into an empty project: ours packed from the
 * workspace (`src/install-size.ts`: every published package packed, the
 * umbrella installed with its siblings from their tarballs; the workspace
 * must be built), the reference from the npm registry, both measured the same
 * way (du of node_modules, packages, the biggest).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type InstallSizeResult, measureInstallSize, measureNodeModules } from "../install-size.js";

export type InstallResult = Omit<InstallSizeResult, "dir">;

export function measureOurInstall(): InstallResult {
  const { dir: _dir, ...result } = measureInstallSize();
  return result;
}

export function measureRefInstall(version: string): InstallResult {
  const project = mkdtempSync(join(tmpdir(), "pi-mcp-install-ref-"));
  try {
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "install-probe", private: true }));
    execFileSync(
      "npm",
      ["install", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error", `pi-mcp-adapter@${version}`],
      { cwd: project, stdio: ["ignore", "ignore", "inherit"] },
    );
    return measureNodeModules(join(project, "node_modules"));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
