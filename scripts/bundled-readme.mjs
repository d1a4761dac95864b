#!/usr/bin/env node
/**
 * Keeps each package README's "Bundled third-party code" section equal to what its build bundled
 * (`dist/bundled.json`, written by bundle-dist.mjs). `node scripts/bundled-readme.mjs` rewrites the
 * sections (between the two marker comments, or appended at the end the first time); `--check` only
 * lists the READMEs whose section is stale and exits 1 (the release check runs it).
 *
 * Run after `npm run build`; `npm run bundled:update` does both.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const START = "<!-- bundled-code (written by scripts/bundled-readme.mjs) -->";
const END = "<!-- /bundled-code -->";
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/** The README section for one manifest; empty when nothing is bundled. */
export function bundledSection(manifest) {
  if (manifest.bundled.length === 0) return "";
  const list = manifest.bundled.map((b) => `\`${b.name}\` ${b.version} (${b.license})`).join(", ");
  // One line, so the section costs READMEs (kept under 400 lines) two lines.
  return `${START}**Bundled third-party code.** To keep the install small, parts of these packages are compiled into \`dist/\` instead of installed as dependencies: ${list}. Their licences are in \`dist/THIRD-PARTY-LICENSES.md\`; a fix in one of them reaches you with a new release of this package.${END}`;
}

/** The README text with its section replaced (or appended, or removed when nothing is bundled). */
export function withBundledSection(readme, manifest) {
  const section = bundledSection(manifest);
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start >= 0 && end > start) {
    const before = readme.slice(0, start).replace(/\n+$/, "");
    const after = readme.slice(end + END.length).replace(/^\n+/, "");
    return `${[before, section, after].filter(Boolean).join("\n\n").trimEnd()}\n`;
  }
  return section ? `${readme.trimEnd()}\n\n${section}\n` : readme;
}

/** Package folders with a built manifest. */
export function bundledPackageDirs(root = repoRoot) {
  const packages = join(root, "packages");
  return readdirSync(packages)
    .map((name) => join(packages, name))
    .filter((dir) => existsSync(join(dir, "dist", "bundled.json")));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = [];
  for (const dir of bundledPackageDirs()) {
    const manifest = JSON.parse(readFileSync(join(dir, "dist", "bundled.json"), "utf8"));
    const readmePath = join(dir, "README.md");
    const readme = readFileSync(readmePath, "utf8");
    const next = withBundledSection(readme, manifest);
    if (next === readme) continue;
    stale.push(readmePath);
    if (!check) writeFileSync(readmePath, next);
  }
  if (check && stale.length > 0) {
    console.error(
      `README bundled-code sections out of date (run npm run bundled:update):\n${stale.join("\n")}`,
    );
    process.exit(1);
  }
  console.log(check ? "README bundled-code sections are current" : `updated ${stale.length} README(s)`);
}
