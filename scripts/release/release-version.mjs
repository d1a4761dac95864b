#!/usr/bin/env node
/**
 * `npm run release:version`: turns the pending changesets into versions and changelogs, in one command.
 *
 * 1. The umbrella's first release: `pi-mcp-adapter` on npm already had 2.x releases (the earlier adapter),
 *    and this line is documented as 4.0.0. While its version is below FIRST_RELEASE_BASE it is set there
 *    first, so the `major` bump of `.changeset/first-stable-release.md` lands on 4.0.0 (the pieces go
 *    from 0.1.0 to 1.0.0 by the same changeset). Later releases skip this step.
 * 2. `changeset version` (our generator, `changelog-by-subject.cjs`, tags each line with its subject).
 * 3. `group-changelogs.mjs` regroups each new changelog section by subject.
 * 4. `npm install --package-lock-only --offline` records the new versions in package-lock.json.
 * 5. Prints the versions and fails if a changeset is left in `.changeset/`.
 *
 * It does not commit: read the diff, then commit it as the release commit; `npx changeset status` on
 * that commit lists nothing pending (before the commit it counts the changed files as unreleased).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIRST_RELEASE_BASE = { "pi-mcp-adapter": "3.0.0" };

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (command, args) => execFileSync(command, args, { cwd: root, stdio: "inherit" });
const manifestPaths = () =>
  readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "package.json"));
const major = (version) => Number(version.split(".")[0]);

for (const path of manifestPaths()) {
  const text = readFileSync(path, "utf8");
  const manifest = JSON.parse(text);
  const base = FIRST_RELEASE_BASE[manifest.name];
  if (base && major(manifest.version) < major(base)) {
    writeFileSync(path, text.replace(`"version": "${manifest.version}"`, `"version": "${base}"`));
    console.log(`${manifest.name}: ${manifest.version} → ${base} before the first release's major bump`);
  }
}

run("npx", ["changeset", "version"]);
run(process.execPath, [join(root, "scripts", "release", "group-changelogs.mjs")]);
run("npm", ["install", "--package-lock-only", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]);

for (const path of manifestPaths()) {
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  if (!manifest.private) console.log(`${manifest.name}@${manifest.version}`);
}
const left = readdirSync(join(root, ".changeset")).filter(
  (name) => name.endsWith(".md") && name !== "README.md",
);
if (left.length > 0) throw new Error(`changesets left after changeset version: ${left.join(", ")}`);
console.log(
  "No changeset left: commit this as the release commit, then `npx changeset status` lists nothing.",
);
