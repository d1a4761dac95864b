/**
 * The compile hints every package build gives the files a start-up loads (scripts/compile-hints.mjs):
 * top-level functions become eagerly compiled expressions that behave as the declarations did, and only
 * files a start can load statically, on no import cycle, are rewritten.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../src/published-packages.js";

const { eagerFunctions, eagerFiles } = (await import(path.join(repoRoot, "scripts/compile-hints.mjs"))) as {
  eagerFunctions(text: string): string;
  eagerFiles(metafile: unknown): string[];
};

const dir = mkdtempSync(path.join(tmpdir(), "compile-hints-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let written = 0;
async function load(text: string): Promise<Record<string, unknown>> {
  const file = path.join(dir, `m${written++}.mjs`);
  writeFileSync(file, text);
  return import(pathToFileURL(file).href);
}

describe("eagerFunctions", () => {
  const source = [
    'import { basename } from "node:path";',
    // Called by top-level code above its declaration: still defined, as a hoisted declaration is.
    "export const early = twice(21);",
    "function twice(n) { return n * 2; }",
    "async function later(x) { return basename(x); }",
    "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }",
    "function* counter() { yield 1; yield 2; }",
    "export { twice, later, fact, counter };",
  ].join("\n");

  it("turns each top-level function but generators into a parenthesised expression first in the file", () => {
    const out = eagerFunctions(source);
    const lines = out.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "var twice = (function twice(n) { return n * 2; });",
      "var later = (async function later(x) { return basename(x); });",
      "var fact = (function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); });",
    ]);
    expect(out).toContain("function* counter() { yield 1; yield 2; }");
    expect(out.match(/function twice/g)).toHaveLength(1);
  });

  it("leaves the module doing what it did", async () => {
    const before = await load(source);
    const after = await load(eagerFunctions(source));
    for (const m of [before, after]) {
      expect(m.early).toBe(42);
      expect((m.fact as (n: number) => number)(5)).toBe(120);
      await expect((m.later as (x: string) => Promise<string>)("/a/b.txt")).resolves.toBe("b.txt");
      expect([...(m.counter as () => Iterable<number>)()]).toEqual([1, 2]);
      expect((m.twice as () => void).name).toBe("twice");
    }
  });

  it("keeps a program's #! line first, and a file without functions as it was", () => {
    const program = '#!/usr/bin/env node\nconsole.log(main());\nfunction main() { return "ok"; }\n';
    expect(eagerFunctions(program).split("\n").slice(0, 2)).toEqual([
      "#!/usr/bin/env node",
      'var main = (function main() { return "ok"; });',
    ]);
    const plain = "export const a = () => 1;\n";
    expect(eagerFunctions(plain)).toBe(plain);
  });
});

describe("eagerFiles", () => {
  const out = (imports: [string, string][], entryPoint?: string) => ({
    imports: imports.map(([p, kind]) => ({ path: p, kind })),
    ...(entryPoint ? { entryPoint } : {}),
  });

  it("picks the entries and their static imports, not what only import() reaches, nor a cycle", () => {
    const metafile = {
      outputs: {
        "dist/index.js": out(
          [
            ["dist/chunk-a.js", "import-statement"],
            ["dist/lazy.js", "dynamic-import"],
          ],
          "src/index.js",
        ),
        "dist/chunk-a.js": out([["node:fs", "import-statement"]]),
        "dist/lazy.js": out([]),
        "dist/other.js": out([["dist/chunk-c1.js", "import-statement"]], "src/other.js"),
        "dist/chunk-c1.js": out([["dist/chunk-c2.js", "import-statement"]]),
        "dist/chunk-c2.js": out([["dist/chunk-c1.js", "import-statement"]]),
        "dist/index.d.ts": out([]),
      },
    };
    metafile.outputs["dist/chunk-a.js"].imports[0] = {
      path: "node:fs",
      kind: "import-statement",
      external: true,
    } as never;
    expect(eagerFiles(metafile).sort()).toEqual(["dist/chunk-a.js", "dist/index.js", "dist/other.js"]);
  });
});
