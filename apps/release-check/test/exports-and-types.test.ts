/**
 * Every package installed from its tarball into one empty project: each `exports` subpath imports in
 * plain Node, and a tiny TypeScript consumer resolves the types of each under `moduleResolution`
 * node16 and bundler.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installTarballs } from "../src/install-tarballs.js";
import { publishedPackages, repoRoot } from "../src/published-packages.js";

/** `pkg` and `pkg/sub` for every export subpath but `./package.json`, with whether it declares types. */
const specifiers = publishedPackages().flatMap(({ manifest }) =>
  Object.entries(manifest.exports ?? {})
    .filter(([subpath]) => subpath !== "./package.json")
    .map(([subpath, target]) => ({
      specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      typed: typeof target === "object" && Boolean(target.types),
    })),
);

let temp: string;
let app: string;
beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), "release-exports-"));
  app = await installTarballs(
    path.join(temp, "all"),
    publishedPackages().map((p) => p.manifest.name),
  );
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("installed from the tarballs", () => {
  it("every export subpath imports in plain Node", () => {
    const script = `const failed = [];
for (const s of ${JSON.stringify(specifiers.map((s) => s.specifier))}) {
  try { await import(s); } catch (e) { failed.push(s + ": " + e.message); }
}
console.log(JSON.stringify(failed));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: app,
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
    expect(specifiers.length).toBeGreaterThan(publishedPackages().length);
  });

  for (const resolution of ["node16", "bundler"] as const) {
    it(`the types of every subpath resolve under moduleResolution ${resolution}`, () => {
      const typed = specifiers.filter((s) => s.typed);
      writeFileSync(
        path.join(app, "consumer.ts"),
        `${typed.map((s, i) => `import * as m${i} from "${s.specifier}";`).join("\n")}\nexport const all = [${typed.map((_, i) => `m${i}`).join(", ")}];\n`,
      );
      writeFileSync(
        path.join(app, `tsconfig.${resolution}.json`),
        JSON.stringify({
          compilerOptions: {
            module: resolution === "node16" ? "node16" : "esnext",
            moduleResolution: resolution,
            target: "es2022",
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ["node"],
            typeRoots: [path.join(repoRoot, "node_modules", "@types")],
          },
          files: ["consumer.ts"],
        }),
      );
      const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
      let output = "";
      try {
        execFileSync(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], {
          cwd: app,
          encoding: "utf8",
        });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout);
      }
      expect(output).toBe("");
      expect(typed.length).toBeGreaterThan(0);
    });
  }
});
