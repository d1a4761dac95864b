/**
 * `pi-mcp-adapter daemon status|stop` and the shared column of `status`, as
 * users run them (the built bin), against the real daemon with a real
 * server-everything attached by a session of this test process.
 */
import { writeFile } from "node:fs/promises";
import { openSharedServer, stopDaemon } from "@pi-mcp-adapter/daemon";
import { createTempDir, isProcessAlive, serverEverythingPath, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

describe("pi-mcp-adapter daemon", () => {
  it("says when no daemon runs, and rejects other words", async () => {
    await using dir = await createTempDir();
    const status = runCli(dir.path, "daemon");
    expect(status.status).toBe(0);
    expect(status.stdout).toContain("No shared-server daemon is running");
    expect(JSON.parse(runCli(dir.path, "--json", "daemon", "status").stdout)).toEqual({
      running: false,
      daemon: null,
    });
    expect(runCli(dir.path, "daemon", "stop").stdout).toContain("No shared-server daemon was running.");
    const bad = runCli(dir.path, "daemon", "restart");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('daemon takes "status" or "stop", not "restart"');
  });

  it("shows the daemon's servers and their sessions (also in status), and stops it with its servers", async () => {
    await using dir = await createTempDir();
    const agentDir = `${dir.path}/agent`;
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
        settings: { shareServers: true },
      }),
    );
    const channel = await openSharedServer({
      agentDir,
      spec: {
        command: process.execPath,
        args: [serverEverythingPath],
        env: { PATH: process.env.PATH ?? "" },
      },
      serverName: "everything",
    });
    const closed = new Promise<void>((resolve) => {
      channel.onclose = resolve;
    });
    const serverPid = channel.attachment?.pid ?? 0;
    try {
      const text = runCli(dir.path, "daemon", "status");
      expect(text.status, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^Shared-server daemon: pid \d+, up \d+s, 1 session$/m);
      expect(text.stdout).toContain(`- everything: pid ${serverPid}, shared (1 session)`);
      const json = JSON.parse(runCli(dir.path, "--json", "daemon").stdout);
      expect(json.running).toBe(true);
      expect(json.daemon.servers).toEqual([
        expect.objectContaining({ name: "everything", pid: serverPid, sessions: 1 }),
      ]);

      // The CLI's own status never connects, yet says the server is shared and by how many sessions.
      const status = runCli(dir.path, "status");
      expect(status.stdout).toContain("- everything: not-connected, shared (1 session)");
      const statusJson = JSON.parse(runCli(dir.path, "--json", "status").stdout);
      expect(statusJson.servers[0].shared).toEqual({ sessions: 1 });
      expect(statusJson.daemon).toEqual({ pid: json.daemon.pid, sessions: 1, servers: 1 });

      const stop = runCli(dir.path, "daemon", "stop");
      expect(stop.stdout).toBe(
        `Stopped the shared-server daemon (pid ${json.daemon.pid}) and its 1 server.\n`,
      );
      await closed;
      expect(await waitForExit([serverPid, json.daemon.pid], 10_000)).toEqual([]);
      expect(runCli(dir.path, "daemon").stdout).toContain("No shared-server daemon is running");
    } finally {
      await channel.close();
      await stopDaemon(agentDir).catch(() => false);
      if (isProcessAlive(serverPid)) process.kill(serverPid, "SIGKILL");
    }
  });
  it("names both config entries that share one process, in daemon status and status", async () => {
    await using dir = await createTempDir();
    const agentDir = `${dir.path}/agent`;
    const entry = { command: process.execPath, args: [serverEverythingPath] };
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        mcpServers: { everything: entry, "everything-too": entry },
        settings: { shareServers: true },
      }),
    );
    const spec = { ...entry, env: { PATH: process.env.PATH ?? "" } };
    const first = await openSharedServer({ agentDir, spec, serverName: "everything" });
    const second = await openSharedServer({ agentDir, spec, serverName: "everything-too" });
    const serverPid = first.attachment?.pid ?? 0;
    try {
      expect(second.attachment?.pid).toBe(serverPid);
      const text = runCli(dir.path, "daemon", "status");
      expect(text.stdout).toContain(
        `- everything (also everything-too): pid ${serverPid}, shared (2 sessions)`,
      );
      const status = runCli(dir.path, "status");
      expect(status.stdout).toContain("- everything-too: not-connected, shared (2 sessions)");
    } finally {
      await first.close();
      await second.close();
      await stopDaemon(agentDir).catch(() => false);
      if (isProcessAlive(serverPid)) process.kill(serverPid, "SIGKILL");
    }
  });
});
