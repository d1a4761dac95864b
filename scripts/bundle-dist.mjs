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
 * The per-file .js tsc emitted are replaced; the .d.ts files stay. What was inlined is listed in
 * `dist/bundled.json`, with its licences in `dist/THIRD-PARTY-LICENSES.md` (see bundled-notices.mjs).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { writeBundledNotices } from "./bundled-notices.mjs";
import { eagerFiles, eagerFunctions } from "./compile-hints.mjs";

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
// Pi's own packages come from the Pi that loads the extension (never bundled, never installed by us).
const HOST_SCOPES = ["@mariozechner/", "@earendil-works/"];
const isExternal = (specifier) =>
  specifier.startsWith("node:") ||
  HOST_SCOPES.some((scope) => specifier.startsWith(scope)) ||
  external.some((name) => specifier === name || specifier.startsWith(`${name}/`));

const REQUIRE_BANNER =
  'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);';

const entryPoints = { index: "dist/index.js" };
// Each further entry the package exports (e.g. `"./viewer-mode": { "import": "./dist/viewer-mode.js" }`): a
// small part a session start needs, importable without the package's index (code both use goes to a chunk).
// Its command-line programs (`bin`) and Pi extensions (`pi.extensions`) are entries too.
const entryFiles = [
  ...Object.entries(pkg.exports ?? {})
    .filter(([subpath]) => subpath !== ".")
    .map(([, target]) => (typeof target === "string" ? target : target?.import)),
  ...(typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {})),
  ...(pkg.pi?.extensions ?? []),
];
for (const file of entryFiles) {
  const name = typeof file === "string" ? /^(?:\.\/)?dist\/(.+)\.js$/.exec(file)?.[1] : undefined;
  if (name && !(name in entryPoints)) entryPoints[name] = `dist/${name}.js`;
}
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
  // The package's version as a constant (`packageVersion` in core): a built package never resolves its package.json.
  define: { __PACKAGE_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS inlined into ESM (e.g. ajv) calls require() for built-ins (left out below where nothing does).
  banner: { js: REQUIRE_BANNER },
  plugins: [
    {
      // zod re-exports all ~60 of its locales (`z.locales`), ~370 KB of source kept in memory by every
      // process that loads core; zod itself uses English only, and so do we.
      name: "zod-english-only",
      setup(b) {
        b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
          /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
            ? {
                path: relative(process.cwd(), join(dirname(args.importer), args.path)),
                namespace: "zod-english-only",
              }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: "zod-english-only" }, (args) => ({
          contents: 'export { default as en } from "./en.js";',
          resolveDir: join(process.cwd(), dirname(args.path)),
        }));
      },
    },
    {
      name: "external-dependencies",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (sharesZod && !isCore) {
            // The SDKs import zod as `zod/v4` (the same API as `zod`) and `zod/v4-mini` (whose few functions
            // they call, `safeParse` and `object`, zod's full API has too): both are the shared copy, so a
            // connection does not load zod's ~95 modules a second time. `zod/v3` is bundled, which leaves
            // nothing of it: a client uses none of it (only zod-to-json-schema's unused imports name it).
            if (args.path === "zod" || args.path === "zod/v4" || args.path === "zod/v4-mini")
              return { path: SHARED_ZOD, external: true };
            if (args.path === "zod/v3") return undefined;
          }
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
// Each output file, read and written once:
// - esbuild escapes non-ASCII in code but leaves it in comments; one such character makes V8 hold the
//   whole file's source as two bytes a character. As `\uXXXX` (in a comment, or anywhere: same meaning).
// - A file that never says `require` needs no require function (making one costs each file loaded).
// - What a start-up loads is compiled with its file, so Node's compile cache keeps it (compile-hints.mjs).
const eager = new Set(eagerFiles(result.metafile));
for (const file of walk(out)) {
  const text = readFileSync(file, "utf8");
  let next = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const rest = next.startsWith(`${REQUIRE_BANNER}\n`) ? next.slice(REQUIRE_BANNER.length + 1) : undefined;
  if (rest !== undefined && !/\brequire\b/.test(rest)) next = rest;
  if (eager.has(file)) next = eagerFunctions(next);
  if (next !== text) writeFileSync(file, next);
}
// Entries in subfolders (e.g. `dist/pi/extension.js`) go beside their declarations.
for (const file of walk(out)) {
  const target = join("dist", relative(out, file));
  mkdirSync(dirname(target), { recursive: true });
  renameSync(file, target);
}
rmSync(out, { recursive: true, force: true });
const { bundled } = writeBundledNotices(result.metafile, {
  packageName: pkg.name,
  repoRoot: fileURLToPath(new URL("..", import.meta.url)),
});
console.log(
  `bundled third-party code: ${bundled.map((b) => `${b.name}@${b.version}`).join(", ") || "(none)"}`,
);
console.log(`bundled ${relative(process.cwd(), "dist")}: external ${external.join(", ") || "(none)"}`);
