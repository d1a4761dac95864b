import { spawn } from "node:child_process";
import { chmod, readFile, stat } from "node:fs/promises";
import { connect } from "node:net";
import { skipNotice } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { daemonPaths, sharingSupport } from "../src/index.js";
import {
  agentDirPerTest,
  daemonStatus,
  everythingSpec,
  firstText,
  isRunning,
  openSession,
} from "./daemon-fixtures.js";

const agent = agentDirPerTest();

/** Sends one line on a fresh connection to the daemon and returns the reply line. */
async function rawHello(socketPath: string, hello: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString();
      const end = data.indexOf("\n");
      if (end >= 0) {
        socket.destroy();
        resolve(JSON.parse(data.slice(0, end)) as Record<string, unknown>);
      }
    });
    socket.on("error", reject);
    socket.write(`${JSON.stringify(hello)}\n`);
  });
}

const notRoot = skipNotice(
  "socket test against another user",
  process.getuid?.() === 0 ? undefined : "needs root (it switches to the user nobody)",
);

describe("who can reach a shared server", () => {
  it("keeps the daemon directory 0700 and its socket, token and log 0600", async () => {
    await openSession(agent.path, "alpha");
    const paths = daemonPaths(agent.path);
    expect((await stat(paths.dir)).mode & 0o777).toBe(0o700);
    expect((await stat(paths.socket)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.token)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.log)).mode & 0o777).toBe(0o600);
  });

  it.skipIf(notRoot !== "")(
    `refuses another user at the socket (run as root, the test connects as nobody)${notRoot}`,
    async () => {
      await openSession(agent.path, "alpha");
      const paths = daemonPaths(agent.path);
      await chmod(agent.path, 0o755); // only the daemon's own modes stand in the way
      const connectAsNobody = () =>
        new Promise<string>((resolve) => {
          const probe = spawn(
            process.execPath,
            [
              "-e",
              `require("node:net").connect(${JSON.stringify(paths.socket)})` +
                '.on("connect", () => { console.log("connected"); process.exit(0); })' +
                '.on("error", (e) => { console.log(e.code); process.exit(0); });',
            ],
            { uid: 65534, gid: 65534, stdio: ["ignore", "pipe", "ignore"] },
          );
          let out = "";
          probe.stdout.on("data", (chunk) => (out += chunk));
          probe.on("close", () => resolve(out.trim()));
        });
      expect(await connectAsNobody()).toBe("EACCES");
      // Even with the directory opened up, the socket's own 0600 refuses.
      await chmod(paths.dir, 0o755);
      expect(await connectAsNobody()).toBe("EACCES");
      await chmod(paths.dir, 0o700);
    },
  );

  it("gives a different spec or client key its own server process", async () => {
    const a = await openSession(agent.path, "alpha", { spec: everythingSpec({ MODE: "one" }) });
    const b = await openSession(agent.path, "beta", { spec: everythingSpec({ MODE: "two" }) });
    const c = await openSession(agent.path, "gamma", {
      spec: everythingSpec({ MODE: "one" }),
      clientKey: "other",
    });
    const pids = new Set([a, b, c].map((s) => s.channel.attachment?.pid));
    expect(pids.size).toBe(3);
    expect((await daemonStatus(agent.path))?.servers).toHaveLength(3);
  });

  it("lets no one reach a server without presenting its whole spec and the token", async () => {
    const a = await openSession(agent.path, "alpha");
    const paths = daemonPaths(agent.path);
    const token = await readFile(paths.token, "utf8");
    const key = a.channel.attachment?.key;
    const byKey = await rawHello(paths.socket, { "pi-mcp-daemon": 1, token, op: "attach", name: "x", key });
    expect(byKey).toMatchObject({ ok: false, code: "bad_hello" });
    const badToken = await rawHello(paths.socket, {
      "pi-mcp-daemon": 1,
      token: "0".repeat(64),
      op: "attach",
      name: "everything",
      spec: everythingSpec(),
      clientKey: "elicitation",
      idleTimeoutMs: 1000,
    });
    expect(badToken).toMatchObject({ ok: false, code: "bad_token" });
    const status = await daemonStatus(agent.path);
    expect(status?.servers).toHaveLength(1);
    expect(status?.servers[0]?.sessions).toBe(1);
  });

  it("never writes a secret from the spec to its log or status", async () => {
    const secret = `sk-live-${Math.random().toString(36).slice(2)}-do-not-log`;
    const spec = everythingSpec({ API_TOKEN: secret });
    const a = await openSession(agent.path, "alpha", { spec, clientKey: "elicitation" });
    const env = firstText(await a.client.callTool({ name: "get-env", arguments: {} }));
    expect(env).toContain(secret); // the server got it
    await a.client.close();
    await expect.poll(async () => (await daemonStatus(agent.path))?.servers[0]?.idleSince).toBeDefined();
    const log = await readFile(daemonPaths(agent.path).log, "utf8");
    expect(log).toContain('server "everything"');
    expect(log).toContain("left (0 now)");
    expect(log).not.toContain(secret);
    expect(JSON.stringify(await daemonStatus(agent.path))).not.toContain(secret);
    expect(isRunning(a.channel.attachment?.pid ?? 0)).toBe(true);
  });

  it("says servers are not shared on Windows, and why", () => {
    expect(sharingSupport("win32")).toEqual({
      supported: false,
      reason: expect.stringContaining("Unix sockets"),
    });
    expect(sharingSupport("linux")).toEqual({ supported: true });
  });
});
