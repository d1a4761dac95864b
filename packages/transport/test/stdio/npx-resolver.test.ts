import { spawn } from "node:child_process";
import {
  chmod,
  copyFile,
  mkdir,
  readdir,
  readFile,
  stat,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withFileLock } from "@pi-mcp-adapter/core";
import { createTempDir, minimalServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer, createNpxResolver } from "../../src/index.js";
import { parseNpxArgs } from "../../src/stdio/npx-args.js";
import { NPX_CACHE_TTL_MS } from "../../src/stdio/npx-resolver.js";
import { definition } from "../helpers.js";

/** Lays out a package the way `npx` leaves it in `<cache>/_npx/<hash>/node_modules`. */
async function installIntoNpxCache(
  dir: TempDir,
  hash: string,
  manifest: { name: string; version: string; bin: string | Record<string, string> },
) {
  const modules = dir.join("npm-cache", "_npx", hash, "node_modules");
  const pkgDir = path.join(modules, manifest.name);
  await mkdir(path.join(pkgDir, "bin"), { recursive: true });
  await mkdir(path.join(modules, ".bin"), { recursive: true });
  await writeFile(path.join(pkgDir, "package.json"), JSON.stringify(manifest));
  const script = path.join(pkgDir, "bin", "server.mjs");
  await writeFile(
    script,
    `#!${process.execPath}\n${(await readFile(minimalServerPath, "utf8")).replace(/^#!.*\n/, "")}`,
  );
  await chmod(script, 0o755);
  const bins =
    typeof manifest.bin === "string" ? { [manifest.name.split("/").pop()!]: manifest.bin } : manifest.bin;
  for (const binName of Object.keys(bins)) {
    await symlink(path.relative(path.join(modules, ".bin"), script), path.join(modules, ".bin", binName));
  }
  return path.join(modules, ".bin");
}

describe("parseNpxArgs", () => {
  it("reads the common shapes and refuses the rest", () => {
    expect(parseNpxArgs(["-y", "chrome-devtools-mcp@1.6.0", "--headless"])).toEqual({
      packageSpec: "chrome-devtools-mcp@1.6.0",
      rest: ["--headless"],
    });
    expect(parseNpxArgs(["-p", "@scope/pkg", "pkg-server", "x"])).toEqual({
      packageSpec: "@scope/pkg",
      bin: "pkg-server",
      rest: ["x"],
    });
    expect(parseNpxArgs(["--yes", "--package=a", "b"])).toEqual({ packageSpec: "a", bin: "b", rest: [] });
    expect(parseNpxArgs(["--registry", "https://example.test", "pkg"])).toBeUndefined();
    expect(parseNpxArgs(["-y"])).toBeUndefined();
  });
});

describe("npx resolution", () => {
  it("runs a cached npx package's bin directly, without npm in between", async () => {
    await using dir = await createTempDir();
    const binDir = await installIntoNpxCache(dir, "0a1b2c3d4e5f6a7b", {
      name: "@fixture/echo-mcp",
      version: "1.2.3",
      bin: { "echo-mcp": "bin/server.mjs" },
    });
    const resolve = createNpxResolver({ npmCacheDir: dir.join("npm-cache") });
    expect(await resolve("npx", ["-y", "@fixture/echo-mcp@1.2.3", "--flag"])).toEqual({
      command: path.join(binDir, "echo-mcp"),
      args: ["--flag"],
    });
    const connection = await connectServer(
      definition({
        name: "npx-echo",
        transport: "stdio",
        command: "npx",
        args: ["-y", "@fixture/echo-mcp@1.2.3"],
      }),
      { resolveCommand: resolve },
    );
    try {
      const argv = (await readFile(`/proc/${connection.pid}/cmdline`, "utf8")).split("\0");
      expect(argv.some((arg) => /np[mx]-cli|bin\/np[mx]$/.test(arg))).toBe(false);
      expect(argv[1]).toBe(path.join(binDir, "echo-mcp"));
      expect((await connection.callTool("echo", { text: "direct" })).content).toEqual([
        { type: "text", text: "direct" },
      ]);
    } finally {
      await connection.close();
    }
  });

  it("picks the named bin with -p, the exact version, and the newest install", async () => {
    await using dir = await createTempDir();
    const old = await installIntoNpxCache(dir, "1111111111111111", {
      name: "multi",
      version: "1.0.0",
      bin: { "multi-a": "bin/server.mjs", "multi-b": "bin/server.mjs" },
    });
    const newer = await installIntoNpxCache(dir, "2222222222222222", {
      name: "multi",
      version: "2.0.0",
      bin: { "multi-a": "bin/server.mjs", "multi-b": "bin/server.mjs" },
    });
    await utimes(path.join(old, "multi-b"), new Date(1_000_000), new Date(1_000_000));
    const resolve = createNpxResolver({ npmCacheDir: dir.join("npm-cache") });
    expect((await resolve("npx", ["-p", "multi@1.0.0", "multi-b"])).command).toBe(path.join(old, "multi-b"));
    expect((await resolve("npx", ["-p", "multi", "multi-b"])).command).toBe(path.join(newer, "multi-b"));
    // Two bins and none named like the package: ambiguous, so npx decides.
    expect(await resolve("npx", ["-y", "multi"])).toEqual({ command: "npx", args: ["-y", "multi"] });
  });

  it("falls back to npx when the package is not cached, the version does not match, or the spec is a range", async () => {
    await using dir = await createTempDir();
    await installIntoNpxCache(dir, "3333333333333333", {
      name: "solo",
      version: "1.0.0",
      bin: "bin/server.mjs",
    });
    const resolve = createNpxResolver({ npmCacheDir: dir.join("npm-cache") });
    for (const args of [
      ["-y", "absent-pkg"],
      ["-y", "solo@2.0.0"],
      ["-y", "solo@^1"],
      ["--registry", "x", "solo"],
    ]) {
      expect(await resolve("npx", args)).toEqual({ command: "npx", args });
    }
    expect(await resolve("node", ["server.js"])).toEqual({ command: "node", args: ["server.js"] });
  });

  it("remembers resolutions in a file for 24 hours", async () => {
    await using dir = await createTempDir();
    const binDir = await installIntoNpxCache(dir, "4444444444444444", {
      name: "solo",
      version: "1.0.0",
      bin: "bin/server.mjs",
    });
    const cacheFile = dir.join("agent", "mcp-npx-cache.json");
    let now = 5_000_000;
    const first = createNpxResolver({ npmCacheDir: dir.join("npm-cache"), cacheFile, now: () => now });
    expect((await first("npx", ["-y", "solo"])).command).toBe(path.join(binDir, "solo"));
    const saved = JSON.parse(await readFile(cacheFile, "utf8"));
    expect(saved.entries['["npx","-y","solo"]']).toMatchObject({
      command: path.join(binDir, "solo"),
      resolvedAt: 5_000_000,
    });

    // A new process trusts the file even with no npm cache to look at …
    const second = createNpxResolver({ npmCacheDir: dir.join("elsewhere"), cacheFile, now: () => now });
    expect((await second("npx", ["-y", "solo"])).command).toBe(path.join(binDir, "solo"));
    // … until the entry is older than the TTL.
    now += NPX_CACHE_TTL_MS + 1;
    const third = createNpxResolver({ npmCacheDir: dir.join("elsewhere"), cacheFile, now: () => now });
    expect(await third("npx", ["-y", "solo"])).toEqual({ command: "npx", args: ["-y", "solo"] });
  });

  it("keeps entries other resolvers (other processes) saved to the same file, and drops expired ones", async () => {
    await using dir = await createTempDir();
    await installIntoNpxCache(dir, "6666666666666666", { name: "alpha", version: "1.0.0", bin: "bin/a.mjs" });
    await installIntoNpxCache(dir, "7777777777777777", { name: "beta", version: "1.0.0", bin: "bin/b.mjs" });
    const cacheFile = dir.join("agent", "mcp-npx-cache.json");
    await mkdir(path.dirname(cacheFile), { recursive: true });
    await writeFile(
      cacheFile,
      JSON.stringify({ version: 1, entries: { old: { command: "/gone", args: [], resolvedAt: 1 } } }),
    );
    const now = () => 10 * NPX_CACHE_TTL_MS;
    const one = createNpxResolver({ npmCacheDir: dir.join("npm-cache"), cacheFile, now });
    const two = createNpxResolver({ npmCacheDir: dir.join("npm-cache"), cacheFile, now });
    await Promise.all([one("npx", ["-y", "alpha"]), two("npx", ["-y", "beta"])]);
    const saved = JSON.parse(await readFile(cacheFile, "utf8"));
    expect(Object.keys(saved.entries).sort()).toEqual(['["npx","-y","alpha"]', '["npx","-y","beta"]']);
    expect((await stat(cacheFile)).mode & 0o777).toBe(0o600);
    expect(await readdir(path.dirname(cacheFile))).toEqual(["mcp-npx-cache.json"]);
  });

  it("ignores a corrupt cache file", async () => {
    await using dir = await createTempDir();
    await installIntoNpxCache(dir, "5555555555555555", {
      name: "solo",
      version: "1.0.0",
      bin: "bin/server.mjs",
    });
    const cacheFile = dir.join("mcp-npx-cache.json");
    await copyFile(minimalServerPath, cacheFile);
    const resolve = createNpxResolver({ npmCacheDir: dir.join("npm-cache"), cacheFile });
    expect((await resolve("npx", ["-y", "solo"])).command).toContain(path.join("_npx", "5555555555555555"));
  });

  it("keeps every entry when many processes save at once while another writer holds the file", async () => {
    await using dir = await createTempDir();
    const names = ["one", "two", "three", "four", "five"];
    for (const [i, name] of names.entries()) {
      await installIntoNpxCache(dir, String(i).repeat(16), { name, version: "1.0.0", bin: "bin/s.mjs" });
    }
    const cacheFile = dir.join("agent", "mcp-npx-cache.json");
    const go = dir.join("go");
    const script = fileURLToPath(new URL("../fixtures/npx-resolve-session.mjs", import.meta.url));
    const sessions = Array.from({ length: 20 }, () => {
      const argv = [script, dir.join("npm-cache"), cacheFile, go, ...names];
      const child = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const ready = new Promise<void>((resolve) =>
        child.stdout.on("data", (chunk) => {
          stdout += chunk;
          if (stdout.startsWith("ready\n")) resolve();
        }),
      );
      const exited = new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
      return { ready, exited };
    });
    await Promise.all(sessions.map((s) => s.ready));
    // Another writer holds the file longer than the resolver used to wait (2 s), as a large write
    // of a slow disk would; every session must wait its turn rather than drop its entries.
    await withFileLock(cacheFile, async () => {
      await writeFile(go, "");
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    });
    for (const result of await Promise.all(sessions.map((s) => s.exited))) {
      expect(result).toEqual({ code: 0, stderr: "" });
    }
    const saved = JSON.parse(await readFile(cacheFile, "utf8").catch(() => `{ "entries": {} }`));
    expect(Object.keys(saved.entries).sort()).toEqual(
      names.map((n) => JSON.stringify(["npx", "-y", n])).sort(),
    );
  }, 120_000);
});
