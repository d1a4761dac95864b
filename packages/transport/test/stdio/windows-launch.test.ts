/**
 * How stdio servers start on Windows. There is no Windows machine here: the
 * checks run cross-spawn's real resolution (what `spawnProcess` starts every
 * server with) in a child Node process that reports itself as win32, with
 * PATH and PATHEXT pointing at `.cmd` shims on disk, and the npx resolver
 * with `platform: "win32"`. What they cannot show is `cmd.exe` itself running.
 */
import { execFile } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { createTempDir, minimalServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer, createNpxResolver } from "../../src/index.js";
import { definition } from "../helpers.js";

const crossSpawnPath = createRequire(import.meta.url).resolve("cross-spawn");

/** What cross-spawn would hand to Node's spawn on win32 for `command args`, with `dir` on PATH. */
async function parseOnWindows(command: string, args: string[], dir: string) {
  const script = `
    Object.defineProperty(process, "platform", { value: "win32" });
    const parsed = require(${JSON.stringify(crossSpawnPath)})._parse(process.argv[1], JSON.parse(process.argv[2]), { env: { PATH: process.argv[3] } });
    process.stdout.write(JSON.stringify({ command: parsed.command, args: parsed.args, file: parsed.file }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["-e", script, command, JSON.stringify(args), dir],
    // Lower-case extensions: the shims' names on this case-sensitive file system.
    { env: { ...process.env, PATHEXT: ".com;.exe;.bat;.cmd" } },
  );
  return JSON.parse(stdout) as { command: string; args: string[]; file?: string };
}

describe("starting servers on Windows (emulated: no Windows machine here)", () => {
  it("finds `npx` as npx.cmd through PATHEXT and runs it through cmd.exe with its arguments escaped", async () => {
    await using dir = await createTempDir();
    await writeFile(dir.join("npx.cmd"), "@echo off\r\n");
    const parsed = await parseOnWindows("npx", ["-y", "@scope/server", "--name=a b"], dir.path);
    expect(parsed.file).toBe(dir.join("npx.cmd"));
    expect(parsed.command).toMatch(/cmd\.exe$/i);
    expect(parsed.args.slice(0, 3)).toEqual(["/d", "/s", "/c"]);
    expect(parsed.args[3]).toBe('"npx ^"-y^" ^"@scope/server^" ^"--name=a^ b^""');
  });

  it("runs the .cmd shim the npx resolver finds in npm's cache on win32", async () => {
    await using dir = await createTempDir();
    const modules = dir.join("npm-cache", "_npx", "abc123", "node_modules");
    await mkdir(path.join(modules, "win-server"), { recursive: true });
    await mkdir(path.join(modules, ".bin"), { recursive: true });
    await writeFile(
      path.join(modules, "win-server", "package.json"),
      JSON.stringify({ name: "win-server", version: "1.0.0", bin: "server.js" }),
    );
    await writeFile(path.join(modules, ".bin", "win-server.cmd"), "@echo off\r\n");
    const resolve = createNpxResolver({ npmCacheDir: dir.join("npm-cache"), platform: "win32" });
    const resolved = await resolve("npx.cmd", ["-y", "win-server", "--flag=x&y"]);
    expect(resolved).toEqual({ command: path.join(modules, ".bin", "win-server.cmd"), args: ["--flag=x&y"] });
    // A cmd-shim in node_modules/.bin gets its metacharacters escaped twice (it calls node again).
    const parsed = await parseOnWindows(resolved.command, resolved.args, "");
    expect(parsed.command).toMatch(/cmd\.exe$/i);
    expect(parsed.args[3]).toContain('win-server.cmd ^^^"--flag=x^^^&y^^^"');
  });

  it("still starts servers here, in their own process group, through the same launcher", async () => {
    await using dir = await createTempDir();
    const shim = dir.join("server");
    await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${minimalServerPath}"\n`);
    await chmod(shim, 0o755);
    const connection = await connectServer(
      definition({
        name: "shim",
        transport: "stdio",
        command: "server",
        env: { PATH: `${dir.path}:${process.env.PATH}` },
      }),
      { resolveCommand: null },
    );
    try {
      expect(await connection.callTool("echo", { text: "hi" })).toMatchObject({ content: [{ text: "hi" }] });
      // The server leads its own group (so closing it ends its whole tree).
      const { stdout } = await promisify(execFile)("ps", ["-o", "pgid=", "-p", String(connection.pid)]);
      expect(Number(stdout.trim())).toBe(connection.pid);
    } finally {
      await connection.close();
    }
  });
});
