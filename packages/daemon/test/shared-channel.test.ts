/**
 * The session's end of a shared server when the daemon goes away, over a
 * real Unix socket pair in this process (the far end plays the daemon): a
 * write the socket refuses, and a send after the daemon's end of the stream,
 * both reject with `daemon_lost` (never delivered, so safe to send again),
 * and the channel closes as lost to the daemon, after that rejection.
 */
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectSocket } from "../src/client/daemon-connection.js";
import { SharedChannel } from "../src/client/shared-channel.js";
import { DaemonError } from "../src/errors.js";

let dir: TempDir;
let server: Server;
let far: Promise<Socket>;
beforeEach(async () => {
  dir = await createTempDir("pi-channel-");
  server = createServer();
  far = once(server, "connection").then(([socket]) => socket as Socket);
  server.listen(path.join(dir.path, "d.sock"));
  await once(server, "listening");
});
afterEach(async () => {
  server.close();
  await dir.remove();
});

async function attach(): Promise<{ channel: SharedChannel; events: string[]; daemon: Socket }> {
  const socket = await connectSocket(path.join(dir.path, "d.sock"));
  const attachment = { key: "k", pid: 1, reused: false, daemonPid: 2 };
  const channel = new SharedChannel(socket, attachment, 1, "everything", Buffer.alloc(0));
  const events: string[] = [];
  channel.onclose = () => events.push("close");
  channel.onerror = () => {};
  await channel.start();
  return { channel, events, daemon: await far };
}

const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };

describe("SharedChannel when the daemon goes away", () => {
  it("a write the socket refuses rejects with daemon_lost before the channel closes", async () => {
    const { channel, events, daemon } = await attach();
    daemon.destroy();
    // Written in the same tick, before this end has read the daemon's close: the socket refuses it.
    const failure = await channel.send(ping).then(
      () => undefined,
      (error: unknown) => {
        events.push("rejected");
        return error;
      },
    );
    expect(failure).toBeInstanceOf(DaemonError);
    expect((failure as DaemonError).code).toBe("daemon_lost");
    expect((failure as DaemonError).message).toBe(
      'shared server "everything": the daemon went away before the message reached it',
    );
    expect(channel.ended).toEqual({ by: "daemon-lost" });
    await expect.poll(() => events).toEqual(["rejected", "close"]);
  });

  it("the daemon's end of the stream closes the channel at once; a later send is not delivered", async () => {
    const { channel, events, daemon } = await attach();
    daemon.end();
    await expect.poll(() => events).toEqual(["close"]);
    expect(channel.ended).toEqual({ by: "daemon-lost" });
    await expect(channel.send(ping)).rejects.toMatchObject({ code: "daemon_lost" });
  });
});
