/**
 * What each published tarball holds: only what users need (built code, README, changelog, licences),
 * the notices for bundled third-party code, bundled versions equal to the lockfile's, and the manifest
 * fields a registry page shows. Prints each tarball's size.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type PackedTarball,
  packedTarballs,
  publishedPackages,
  repoRoot,
} from "../src/published-packages.js";

interface BundledManifest {
  package: string;
  bundled: { name: string; version: string; license: string; lockfileKey: string }[];
}

const readFromTarball = (tarball: PackedTarball, file: string) =>
  execFileSync("tar", ["-xzOf", tarball.file, `package/${file}`], { encoding: "utf8" });
/** What the build says it bundled; a package built by tsc alone (the daemon) bundles nothing. */
const bundledIn = (tarball: PackedTarball): BundledManifest["bundled"] =>
  tarball.files.includes("dist/bundled.json")
    ? (JSON.parse(readFromTarball(tarball, "dist/bundled.json")) as BundledManifest).bundled
    : [];

let tarballs: Map<string, PackedTarball>;
beforeAll(() => {
  tarballs = packedTarballs();
});

describe("published tarballs", () => {
  it("every published package was packed", () => {
    expect([...tarballs.keys()].sort()).toEqual(
      publishedPackages()
        .map((p) => p.manifest.name)
        .sort(),
    );
  });

  it("hold built code, README, changelog and licences only, the package's own MIT licence among them", () => {
    const licence = readFileSync(path.join(repoRoot, "LICENSE"), "utf8");
    for (const { manifest } of publishedPackages()) {
      const files = tarballs.get(manifest.name)!.files;
      const extra = (manifest.files ?? []).filter(
        (f) => !f.startsWith("!") && !f.includes("/") && f !== "dist",
      );
      const allowed = (file: string) =>
        file.startsWith("dist/") ||
        ["package.json", "README.md", "CHANGELOG.md", "LICENSE", ...extra].includes(file);
      expect(
        files.filter((f) => !allowed(f)),
        manifest.name,
      ).toEqual([]);
      expect(files, manifest.name).toEqual(
        expect.arrayContaining(["package.json", "README.md", "LICENSE", "dist/index.js"]),
      );
      expect(
        // Source maps point at sources the tarball does not hold (~2 MB of the install for nothing).
        files.filter((f) => /(^|\/)(src|test)\//.test(f) || /\.test\.|\.tsbuildinfo$|\.map$/.test(f)),
        manifest.name,
      ).toEqual([]);
      // Each package's copy of the licence is the repository's (npm packs it from the package's folder).
      expect(readFromTarball(tarballs.get(manifest.name)!, "LICENSE"), manifest.name).toBe(licence);
    }
  });

  it("carry the licence of every bundled third-party package", () => {
    for (const tarball of tarballs.values()) {
      const bundled = bundledIn(tarball);
      if (bundled.length === 0) continue;
      const licences = readFromTarball(tarball, "dist/THIRD-PARTY-LICENSES.md");
      for (const b of bundled) expect(licences, tarball.name).toContain(`## ${b.name} ${b.version}`);
    }
  });

  it("bundle the versions package-lock.json holds", () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    const behind: string[] = [];
    for (const tarball of tarballs.values()) {
      for (const b of bundledIn(tarball)) {
        const locked = lock.packages[b.lockfileKey]?.version;
        if (locked !== b.version)
          behind.push(`${tarball.name} bundles ${b.name} ${b.version}, the lockfile has ${locked}`);
      }
    }
    expect(behind, "rebuild with `npm run bundled:update`").toEqual([]);
  });

  it("READMEs name the bundled versions", () => {
    const check = (() => {
      try {
        return execFileSync(process.execPath, ["scripts/bundled-readme.mjs", "--check"], {
          cwd: repoRoot,
          encoding: "utf8",
          stdio: "pipe",
        });
      } catch (error) {
        return String((error as { stderr?: string }).stderr);
      }
    })();
    expect(check).toContain("README bundled-code sections are current");
  });

  it("say where they come from: licence, repository folder, homepage", () => {
    for (const { folder, manifest } of publishedPackages()) {
      expect(manifest.license, manifest.name).toBe("MIT");
      expect(manifest.repository?.url, manifest.name).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/);
      expect(manifest.repository?.directory, manifest.name).toBe(`packages/${folder}`);
      expect(manifest.homepage, manifest.name).toContain(`/packages/${folder}#readme`);
    }
  });

  it("report their sizes", () => {
    const rows = [...tarballs.values()]
      .sort((a, b) => b.size - a.size)
      .map(
        (t) =>
          `${t.name.padEnd(30)} ${(t.size / 1024).toFixed(0).padStart(6)} KiB packed ${(t.unpackedSize / 1024).toFixed(0).padStart(6)} KiB unpacked ${String(t.files.length).padStart(4)} files`,
      );
    console.log(`Tarball sizes:\n${rows.join("\n")}`);
    for (const t of tarballs.values()) expect(t.size, t.name).toBeGreaterThan(0);
  });
});
