/**
 * An empty project with some of our tarballs installed, as a user's `npm install` would do it: our
 * packages (and the internal ones they depend on) from the packed tarballs, third-party dependencies
 * from the registry, served from npm's local cache when it has them (`--prefer-offline`).
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { packedTarballs, withInternalDependencies } from "./published-packages.js";

const run = promisify(execFile);

/** Runs npm in `cwd`, quietly, preferring the local cache; rejects with npm's own stderr. */
export async function npm(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const { stdout } = await run(
    "npm",
    [...args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    {
      cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout;
}

/** Creates `dir` as an empty ESM project and installs `names` (with their internal dependencies) from the tarballs. */
export async function installTarballs(dir: string, names: string[]): Promise<string> {
  const tarballs = packedTarballs();
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "package.json"),
    JSON.stringify({ name: path.basename(dir), private: true, type: "module" }),
  );
  const files = withInternalDependencies(names).map((name) => {
    const tarball = tarballs.get(name);
    if (!tarball) throw new Error(`no tarball was packed for ${name}`);
    return tarball.file;
  });
  await npm(dir, ["install", ...files]);
  return dir;
}
