/**
 * Says what third-party code a bundled package carries: from esbuild's metafile, every npm package with
 * bytes in the output, its version, licence and where the lockfile has it. Writes two files into `dist/`
 * (so into the tarball): `bundled.json` (read by the release check, which compares it with
 * package-lock.json, and by `scripts/bundled-readme.mjs`) and `THIRD-PARTY-LICENSES.md` (each bundled
 * package's licence text, as its licence asks).
 *
 * Used by `bundle-dist.mjs`; a package that bundles nothing gets an empty manifest and no licence file.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** `…/node_modules/@scope/name/dist/x.js` → the package folder `…/node_modules/@scope/name` (the innermost). */
function packageRootOf(file) {
  const parts = resolve(file).split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const width = parts[at + 1]?.startsWith("@") ? 3 : 2;
  return parts.slice(0, at + width).join(sep);
}

/** The bundled npm packages, sorted by name: name, version, licence, lockfile key and licence text. */
function bundledPackages(metafile, repoRoot) {
  const roots = new Set();
  for (const output of Object.values(metafile.outputs))
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
      if (bytesInOutput > 0) {
        const root = packageRootOf(input.replace(/^[a-z-]+:/, ""));
        if (root) roots.add(root);
      }
  return [...roots]
    .map((root) => {
      const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
      const licenceFiles = readdirSync(root).filter((name) => LICENCE_FILE.test(name));
      return {
        name: manifest.name,
        version: manifest.version,
        license: manifest.license ?? "UNKNOWN",
        lockfileKey: relative(repoRoot, root).split(sep).join("/"),
        licenceText: licenceFiles.map((name) => readFileSync(join(root, name), "utf8").trim()).join("\n\n"),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.lockfileKey.localeCompare(b.lockfileKey));
}

/** Writes `dist/bundled.json` and, when anything is bundled, `dist/THIRD-PARTY-LICENSES.md`. */
export function writeBundledNotices(metafile, { packageName, repoRoot, distDir = "dist" }) {
  const bundled = bundledPackages(metafile, repoRoot);
  const manifest = {
    package: packageName,
    bundled: bundled.map(({ name, version, license, lockfileKey }) => ({
      name,
      version,
      license,
      lockfileKey,
    })),
  };
  writeFileSync(join(distDir, "bundled.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const licences = join(distDir, "THIRD-PARTY-LICENSES.md");
  if (bundled.length === 0) {
    if (existsSync(licences)) rmSync(licences);
    return manifest;
  }
  const sections = bundled.map(
    ({ name, version, license, licenceText }) =>
      `## ${name} ${version} (${license})\n\n${licenceText ? `\`\`\`text\n${licenceText}\n\`\`\`` : `Licence: ${license} (the package ships no licence file).`}\n`,
  );
  writeFileSync(
    licences,
    `# Third-party code bundled in ${packageName}\n\nParts of these packages are compiled into this package's \`dist/\` files; their licences follow.\n\n${sections.join("\n")}`,
  );
  return manifest;
}
