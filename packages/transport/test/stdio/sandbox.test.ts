/**
 * Sandboxed stdio servers against the real bubblewrap: the probe server tries
 * to write outside its folders, read ~/.ssh and open a TCP connection to a
 * listener this test runs; the same server unsandboxed is the control.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server } from "node:net";
import path from "node:path";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  createTempDir,
  sandboxProbeServerPath,
  skipNotice,
  type TempDir,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ConnectOptions,
  connectServer,
  createNpxResolver,
  type ServerConnection,
  sandboxUnavailableReason,
} from "../../src/index.js";
import { definition, failure, text } from "../helpers.js";

const unavailable = await sandboxUnavailableReason();
const skipped = skipNotice("sandbox integration tests", unavailable);

let tmp: TempDir;
let listener: Server;
let port: number;
const open: ServerConnection[] = [];

beforeEach(async () => {
  tmp = await createTempDir();
  await mkdir(tmp.join("home", ".ssh"), { recursive: true });
  await writeFile(tmp.join("home", ".ssh", "id_ed25519"), "PRIVATE KEY");
  await mkdir(tmp.join("work"));
  await mkdir(tmp.join("outside"));
  listener = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  await new Promise((resolve) => listener.close(resolve));
  await tmp.remove();
});

function probeServer(sandbox: ServerDefinition["sandbox"]) {
  return definition({
    name: "probe",
    transport: "stdio",
    command: process.execPath,
    // The temp dir's path marks this test's processes (see `processesOf`).
    args: [sandboxProbeServerPath, tmp.path],
    cwd: tmp.join("work"),
    sandbox,
  });
}

async function connect(server: ServerDefinition, options: ConnectOptions = {}) {
  const connection = await connectServer(server, {
    baseEnv: { ...process.env, HOME: tmp.join("home") },
    resolveCommand: null,
    ...options,
  });
  open.push(connection);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    text(await connection.callTool(name, args));
  return { connection, call };
}

/** A Unix socket server at `path` that hangs up on every connection. */
async function listenUnix(path: string) {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Pids of processes whose command line holds `marker`. */
async function processesOf(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

describe.skipIf(skipped !== "")(`a sandboxed stdio server${skipped}`, () => {
  it("writes only in its cwd and private temp dir, cannot read ~/.ssh or open a TCP connection", async () => {
    const { call } = await connect(probeServer(true));

    expect(await call("write_file", { path: tmp.join("work", "in.txt"), text: "inside" })).toBe("ok");
    expect(await readFile(tmp.join("work", "in.txt"), "utf8")).toBe("inside");

    expect(await call("write_file", { path: tmp.join("outside", "out.txt"), text: "x" })).toMatch(
      /^error EROFS/,
    );
    expect(existsSync(tmp.join("outside", "out.txt"))).toBe(false);

    const secret = await call("read_file", { path: tmp.join("home", ".ssh", "id_ed25519") });
    expect(secret).toMatch(/^error /);
    expect(secret).not.toContain("PRIVATE KEY");

    expect(await call("connect_tcp", { host: "127.0.0.1", port })).toMatch(/^error ECONNREFUSED/);

    const temp = await call("temp_dir");
    expect(await call("write_file", { path: path.join(temp, "scratch"), text: "t" })).toBe("ok");
    // The private temp dir is a tmpfs of the sandbox: nothing reaches the host's folder.
    expect(existsSync(path.join(temp, "scratch"))).toBe(false);
  });

  it("runs an npx server the npx resolver found in npm's cache, sandboxed", async () => {
    const pkg = tmp.join("npm", "_npx", "0123abcd", "node_modules", "probe-mcp");
    await mkdir(path.join(pkg, "..", ".bin"), { recursive: true });
    await mkdir(pkg);
    await writeFile(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "probe-mcp", version: "1.0.0", bin: { "probe-mcp": "server.mjs" } }),
    );
    await writeFile(
      path.join(pkg, "server.mjs"),
      `#!/usr/bin/env node\nimport ${JSON.stringify(sandboxProbeServerPath)};\n`,
      { mode: 0o755 },
    );
    await symlink("../probe-mcp/server.mjs", path.join(pkg, "..", ".bin", "probe-mcp"));
    const server = definition({
      name: "npx-probe",
      transport: "stdio",
      command: "npx",
      args: ["-y", "probe-mcp@1.0.0"],
      cwd: tmp.join("work"),
      sandbox: true,
    });
    const { connection, call } = await connect(server, {
      resolveCommand: createNpxResolver({ npmCacheDir: tmp.join("npm") }),
    });
    expect(connection.pid).toBeGreaterThan(0);
    expect(await call("write_file", { path: tmp.join("work", "npx.txt"), text: "x" })).toBe("ok");
    expect(await call("write_file", { path: tmp.join("outside", "npx.txt"), text: "x" })).toMatch(
      /^error EROFS/,
    );
  });

  it("cannot reach local services over Unix sockets: the ssh agent, the runtime dir (session bus, keyring)", async () => {
    const agent = await listenUnix(tmp.join("ssh-agent.sock"));
    await mkdir(tmp.join("run"));
    const bus = await listenUnix(tmp.join("run", "bus"));
    try {
      const env = { SSH_AUTH_SOCK: agent.path, XDG_RUNTIME_DIR: tmp.join("run") };
      const boxed = await connect(probeServer(true), {
        baseEnv: { ...process.env, HOME: tmp.join("home"), ...env },
      });
      expect(await boxed.call("connect_unix", { path: agent.path })).toMatch(/^error ECONNREFUSED/);
      expect(await boxed.call("connect_unix", { path: bus.path })).toMatch(/^error ENOENT/);
      // Control: the same server unsandboxed reaches both.
      const open = await connect(probeServer(false), { baseEnv: { ...process.env, ...env } });
      expect(await open.call("connect_unix", { path: agent.path })).toBe("ok connected");
      expect(await open.call("connect_unix", { path: bus.path })).toBe("ok connected");
    } finally {
      await Promise.all([agent.close(), bus.close()]);
    }
  });

  it("the same server without a sandbox can do all of it (control)", async () => {
    const { call } = await connect(probeServer(false));
    expect(await call("write_file", { path: tmp.join("outside", "out.txt"), text: "x" })).toBe("ok");
    expect(await call("read_file", { path: tmp.join("home", ".ssh", "id_ed25519") })).toBe("ok PRIVATE KEY");
    expect(await call("connect_tcp", { host: "127.0.0.1", port })).toBe("ok connected");
  });

  it("keeps what could run code later read-only inside its cwd: git hooks and config, .pi, .mcp.json", async () => {
    await mkdir(tmp.join("work", ".git", "hooks"), { recursive: true });
    await writeFile(tmp.join("work", ".git", "config"), "[core]\n");
    await mkdir(tmp.join("work", ".pi"));
    await writeFile(tmp.join("work", ".mcp.json"), "{}");
    const { call } = await connect(probeServer(true));
    for (const place of [
      [".git", "hooks", "pre-commit"],
      [".git", "config"],
      [".pi", "settings.json"],
      [".mcp.json"],
    ]) {
      expect(await call("write_file", { path: tmp.join("work", ...place), text: "x" })).toMatch(
        /^error EROFS/,
      );
    }
    expect(await readFile(tmp.join("work", ".mcp.json"), "utf8")).toBe("{}");
    // The rest of .git stays writable (a git server can still commit).
    expect(
      await call("write_file", { path: tmp.join("work", ".git", "HEAD"), text: "ref: refs/heads/main\n" }),
    ).toBe("ok");
  });

  it("widens writes with allowWrite and hides more with denyRead", async () => {
    await writeFile(tmp.join("work", "notes.txt"), "private notes");
    const { call } = await connect(
      probeServer({ filesystem: { allowWrite: ["../outside"], denyRead: ["notes.txt"] } }),
    );
    expect(await call("write_file", { path: tmp.join("outside", "out.txt"), text: "x" })).toBe("ok");
    expect(await readFile(tmp.join("outside", "out.txt"), "utf8")).toBe("x");
    expect(await call("read_file", { path: tmp.join("work", "notes.txt") })).toMatch(/^error EACCES/);
  });

  it("reaches only the hosts network.allow lists, through its proxy", async () => {
    const web = createHttpServer((_request, response) => response.end("hello from the host"));
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    try {
      const webPort = (web.address() as { port: number }).port;
      const { connection, call } = await connect(probeServer({ network: { allow: ["localhost"] } }));
      expect(await call("proxy_get", { host: "localhost", port: webPort })).toBe("ok hello from the host");
      const refused = await call("proxy_get", { host: "127.0.0.1", port: webPort });
      expect(refused).toMatch(/^error PROXY_REFUSED HTTP\/1\.1 403/);
      expect(refused).toContain("does not list 127.0.0.1");
      // The proxy is the only way out: a direct connection still fails.
      expect(await call("connect_tcp", { host: "127.0.0.1", port: webPort })).toMatch(/^error ECONNREFUSED/);
      // bwrap, the bridge and the server all end with the connection.
      const running = await processesOf(tmp.path);
      expect(running.length).toBeGreaterThanOrEqual(3);
      await connection.close();
      expect(await waitForExit(running)).toEqual([]);
    } finally {
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it("hides the agent dir's credential files but not the rest of it", async () => {
    const agentDir = tmp.join("home", ".pi", "agent");
    await mkdir(agentDir, { recursive: true });
    await writeFile(path.join(agentDir, "auth.json"), '{"key":"sk-secret"}');
    await writeFile(path.join(agentDir, "settings.json"), "{}");
    const { call } = await connect(probeServer(true));
    expect(await call("read_file", { path: path.join(agentDir, "auth.json") })).toMatch(/^error EACCES/);
    expect(await call("read_file", { path: path.join(agentDir, "settings.json") })).toBe("ok {}");
  });

  it("leaves no process behind when closed", async () => {
    const { connection, call } = await connect(probeServer(true));
    expect(await call("temp_dir")).not.toBe("");
    const running = await processesOf(tmp.path);
    // bwrap, its init in the pid namespace, and the server.
    expect(running.length).toBeGreaterThanOrEqual(2);
    await connection.close();
    expect(await waitForExit(running)).toEqual([]);
  });
});

describe("a sandbox that cannot be set up", () => {
  it("sandboxUnavailableReason names what is missing", async () => {
    expect(await sandboxUnavailableReason({ bwrapPath: tmp.join("no-such-bwrap") })).toContain(
      "bubblewrap (bwrap) is not installed: install it (Debian/Ubuntu: sudo apt install bubblewrap",
    );
    expect(await sandboxUnavailableReason({ platform: "win32" })).toBe(
      "the sandbox works on Linux only for now (this is Windows)",
    );
  });

  it("does not start the server and says how to install bubblewrap", async () => {
    const error = await failure(
      connect(probeServer(true), { sandbox: { bwrapPath: tmp.join("no-such-bwrap") } }),
    );
    expect(error.code).toBe("sandbox_unavailable");
    expect(error.message).toContain(
      'Server "probe" asks for a sandbox, but bubblewrap (bwrap) is not installed',
    );
    expect(error.message).toContain("sudo apt install bubblewrap");
    expect(error.message).toContain("The server was not started");
  });

  it("says it is Linux-only on other systems", async () => {
    const error = await failure(connect(probeServer(true), { sandbox: { platform: "darwin" } }));
    expect(error.message).toContain("the sandbox works on Linux only for now (this is macOS)");
  });

  it("names what bwrap said when it cannot build the sandbox", async () => {
    // A stand-in bwrap that fails like a kernel without user namespaces: real bwrap cannot be made to fail that way here.
    const fake = tmp.join("bwrap");
    await writeFile(fake, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const error = await failure(connect(probeServer(true), { sandbox: { bwrapPath: fake } }));
    expect(error.message).toContain(
      "bubblewrap cannot create a sandbox here (bwrap: setting up uid map: Permission denied)",
    );
    expect(error.message).toContain("user namespaces");
  });

  it("refuses an npx command the resolver could not turn into a cached bin", async () => {
    const server = definition({
      name: "npx-server",
      transport: "stdio",
      command: "npx",
      args: ["-y", "@example/not-cached-mcp"],
      sandbox: true,
    });
    const error = await failure(
      connect(server, { resolveCommand: async (command, args) => ({ command, args }) }),
    );
    expect(error.message).toContain("npx -y -p @example/not-cached-mcp true");
  });
});
