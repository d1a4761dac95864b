#!/usr/bin/env node
/**
 * Bundles a package's tsc output (dist/index.js and what it imports) into
 * dist/index.js plus lazily loaded chunks, inlining every third-party module
 * that is NOT in the package's `dependencies`. Used by packages whose
 * dependencies would otherwise drag server-side code into a client install:
 * `@modelcontextprotocol/sdk` depends on express, hono, cors, … that a client
 * never loads; bundling its client modules (tree-shaken) keeps them out of
 * `npm install`. What stays external is exactly `dependencies` (shared with
 * sibling packages, e.g. zod) plus Node built-ins.
 *
 * Run from a package folder after `tsc`: `node ../../scripts/bundle-dist.mjs`.
 * The per-file .js tsc emitted are replaced; the .d.ts files stay.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// One copy of zod for all our packages, as a single file: core ships zod bundled as `@pi-mcp-adapter/core/zod`
// and every other package's `import "zod"` points there. Loading zod's ~95 modules one by one costs a
// session start about twice what one bundled file does; `zod` stays a dependency for the type declarations
// and for the SDK's own `zod/v4…` imports.
const SHARED_ZOD = "@pi-mcp-adapter/core/zod";
const isCore = pkg.name === "@pi-mcp-adapter/core";
const sharesZod = isCore || Boolean(pkg.dependencies?.["@pi-mcp-adapter/core"]);
// Optional peer dependencies (e.g. the SDK, declared for its TypeScript types only) are still inlined.
const external = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }).filter(
  (name) => !(isCore && name === "zod"),
);
const isExternal = (specifier) =>
  specifier.startsWith("node:") ||
  external.some((name) => specifier === name || specifier.startsWith(`${name}/`));

const entryPoints = { index: "dist/index.js" };
if (isCore) {
  writeFileSync("dist/zod-entry.js", 'export * from "zod";\nexport { default } from "zod";\n');
  writeFileSync("dist/zod.d.ts", 'export * from "zod";\nexport { default } from "zod";\n');
  entryPoints.zod = "dist/zod-entry.js";
}

const out = "dist.bundle";
rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints,
  outdir: out,
  bundle: true,
  splitting: true, // keeps `await import()` boundaries lazy (e.g. the SDK v2 client)
  format: "esm",
  platform: "node",
  // ESM builds where a package has one (jsonc-parser's UMD build hides its requires from the bundler).
  mainFields: ["module", "main"],
  target: "node20",
  sourcemap: false,
  logLevel: "warning",
  metafile: true,
  chunkNames: "chunk-[hash]",
  // CommonJS inlined into ESM (e.g. ajv) calls require() for built-ins.
  banner: {
    js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
  },
  plugins: [
    {
      name: "external-dependencies",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (sharesZod && !isCore && args.path === "zod") return { path: SHARED_ZOD, external: true };
          return isExternal(args.path) ? { external: true } : undefined;
        });
      },
    },
  ],
});

// `--analyze` prints what each output file holds (e.g. to check a lazy chunk stays lazy).
if (process.argv.includes("--analyze")) {
  const { analyzeMetafile } = await import("esbuild");
  console.log(await analyzeMetafile(result.metafile));
}

// Replace tsc's per-file JavaScript (and its maps) with the bundle; keep declarations.
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
for (const file of walk("dist")) if (/\.js(\.map)?$/.test(file)) rmSync(file);
for (const file of readdirSync(out)) renameSync(join(out, file), join("dist", file));
rmSync(out, { recursive: true, force: true });
console.log(`bundled ${relative(process.cwd(), "dist")}: external ${external.join(", ") || "(none)"}`);
