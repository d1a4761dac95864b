/**
 * What a Pi start loads of ours: the files (and their bytes) a fresh Node
 * process reads through the module loader from importing the built extension
 * entry until `before_agent_start` is done, 38 lazy eval servers, warm
 * cache. V8 compiles every byte of them before the first model request, so
 * fewer and smaller is faster; the largest files are listed.
 *
 * `--vs DIR` lists another checkout's built tree (`DIR/packages/…/dist`) beside.
 *
 * Run: `node --import tsx src/startup-loaded-files.ts [--vs DIR] [top]`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PI_STAND_IN } from "@pi-mcp-adapter/test-kit";
import { extensionEntryUrl } from "./extension-import-time.js";
import { createShellHome, loadCatalogServers } from "./shell/shell-home.js";

// A module hook that appends each loaded file's URL and size to LOADED_LOG (hooks run on their own thread).
const HOOK = `
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  const result = await next(url, context);
  const size = result.source == null ? 0 : typeof result.source === "string" ? Buffer.byteLength(result.source) : result.source.byteLength;
  if (url.startsWith("file:")) appendFileSync(process.env.LOADED_LOG, url + "\\t" + size + "\\n");
  return result;
}
`;

const CHILD = `
import { register } from "node:module";
import { appendFileSync } from "node:fs";
register(process.argv[3]);
${PI_STAND_IN}
const { default: factory } = await import(process.argv[1]);
await factory(pi);
await fire("session_start", ctx);
await fire("before_agent_start", ctx);
appendFileSync(process.env.LOADED_LOG, "--\\n");
await fire("session_shutdown", ctx);
process.exit(0);
`;

export interface LoadedFiles {
  label: string;
  files: { path: string; bytes: number }[];
}

function loaded(entry: string, cwd: string, dir: string): LoadedFiles["files"] {
  const log = join(dir, "loaded.log");
  writeFileSync(log, "");
  execFileSync(
    process.execPath,
    ["--input-type=module", "-e", CHILD, entry, cwd, pathToFileURL(join(dir, "hook.mjs")).href],
    // In the session's directory, as Pi runs: the startup snapshot is then the session's.
    { cwd, env: { ...process.env, LOADED_LOG: log } },
  );
  const lines = readFileSync(log, "utf8").split("\n");
  const files = new Map<string, number>();
  for (const line of lines.slice(0, lines.indexOf("--"))) {
    const [url, size] = line.split("\t");
    if (url && url !== "file:///") files.set(fileURLToPath(url), Number(size));
  }
  return [...files].map(([path, bytes]) => ({ path, bytes }));
}

export async function measureLoadedFiles(builds: { label: string; entry: string }[]): Promise<LoadedFiles[]> {
  const home = await createShellHome(loadCatalogServers());
  try {
    writeFileSync(join(home.root, "hook.mjs"), HOOK);
    return builds.map((b) => ({ label: b.label, files: loaded(b.entry, home.cwd, home.root) }));
  } finally {
    home.close();
  }
}

export function formatLoadedFiles(results: LoadedFiles[], top = 12): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const lines = ["Files loaded from import to before_agent_start done (warm cache, 38 lazy servers):"];
  for (const r of results) {
    const total = r.files.reduce((sum, f) => sum + f.bytes, 0);
    lines.push(`${r.label}: ${r.files.length} files, ${kb(total)}`);
    const packages = /packages\/(.+)$|node_modules\/(.+)$/;
    for (const f of [...r.files].sort((a, b) => b.bytes - a.bytes).slice(0, top)) {
      const m = packages.exec(f.path);
      lines.push(`  ${kb(f.bytes).padStart(7)}  ${m?.[1] ?? m?.[2] ?? f.path}`);
    }
  }
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const vs = args.includes("--vs") ? resolve(args[args.indexOf("--vs") + 1]!) : undefined;
  const top = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--vs") ?? 12);
  const builds = [{ label: "this checkout", entry: extensionEntryUrl() }];
  if (vs) {
    const entry = pathToFileURL(resolve(vs, "packages/pi-mcp-adapter/dist/pi/extension.js")).href;
    builds.unshift({ label: vs, entry });
  }
  console.log(formatLoadedFiles(await measureLoadedFiles(builds), top));
}
