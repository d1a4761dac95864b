#!/usr/bin/env node
/**
 * One command for a bundled dependency's update (e.g. an MCP SDK security fix):
 * `npm run bundled:update -- @modelcontextprotocol/sdk jose` (no names: every bundled package).
 * It runs `npm update` for the names (within the ranges package.json allows; widen a range by hand
 * first for a new major), rebuilds every package, rewrites the READMEs' bundled-code sections, and writes
 * a changeset naming each package whose bundled versions moved, so the fix is released.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundledPackageDirs } from "./bundled-readme.mjs";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const run = (command, args) => execFileSync(command, args, { cwd: repoRoot, stdio: "inherit" });

function readManifests() {
  return new Map(
    bundledPackageDirs(repoRoot).map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, "dist", "bundled.json"), "utf8"));
      return [manifest.package, manifest.bundled];
    }),
  );
}

const before = readManifests();
const names = process.argv.slice(2);
const targets = names.length > 0 ? names : [...new Set([...before.values()].flat().map((b) => b.name))];
run("npm", ["update", ...targets, "--no-audit", "--no-fund"]);
run("npm", ["run", "build"]);
run(process.execPath, [join(repoRoot, "scripts", "bundled-readme.mjs")]);

const moved = [];
for (const [pkg, bundled] of readManifests()) {
  const old = new Map((before.get(pkg) ?? []).map((b) => [b.lockfileKey, b.version]));
  const lines = bundled
    .filter((b) => old.get(b.lockfileKey) !== b.version)
    .map((b) => `\`${b.name}\` ${old.get(b.lockfileKey) ?? "(new)"} → ${b.version}`);
  if (lines.length > 0) moved.push({ pkg, lines });
}
if (moved.length === 0) {
  console.log("No bundled version moved: nothing to release.");
} else {
  const file = join(repoRoot, ".changeset", `bundled-update-${new Date().toISOString().slice(0, 10)}.md`);
  const frontmatter = moved.map(({ pkg }) => `"${pkg}": patch`).join("\n");
  const all = [...new Set(moved.flatMap(({ lines }) => lines))].join(", ");
  writeFileSync(file, `---\n${frontmatter}\n---\n\nBundled third-party code updated: ${all}.\n`);
  console.log(`Bundled versions moved in ${moved.map((m) => m.pkg).join(", ")}; wrote ${file}.`);
}
