/**
 * Servers that go away in the middle of a Pi run, on both Pi lines:
 * - the published server-everything over Streamable HTTP answers a first call
 *   through `mcp`, is then stopped and started again on the same port (it
 *   forgets every session), and the model's next call through `mcp` succeeds.
 *   The model waits for the restart with Pi's own bash tool, which polls for a
 *   marker file the test writes once the new server answers.
 * - server-everything on stdio is killed with SIGKILL while a long call runs:
 *   that call says it may or may not have run, and the model's next call of
 *   the same server starts it again and succeeds (no failure backoff).
 * - server-everything over legacy SSE restarts: the next call opens a new
 *   session at once (its 10-minute request timeout would outlast the test);
 *   then it stops for good: the status says failed, connection lost, and the
 *   next call says the connection was refused.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import {
  recordedPids,
  type ServerEverythingHttp,
  startServerEverything,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { everythingPidEntry, everythingWrapperScript } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

let server: ServerEverythingHttp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echo = (message: string) => ({
  toolCall: { name: "mcp", arguments: { tool: "everything_echo", args: { message } } },
});

describe.each(piHosts())("$label", (host) => {
  it("a call after server-everything restarted at the same URL succeeds", async () => {
    server = await startServerEverything("streamableHttp");
    let restarted: Promise<void> | undefined;
    const restart = async (marker: string) => {
      const old = server as ServerEverythingHttp;
      await old.close();
      server = await startServerEverything("streamableHttp", { port: old.port });
      await writeFile(marker, "up");
    };
    await using project = await createPiProject({
      host,
      adapterConfig: { mcpServers: { everything: { url: server.url } } },
      steps: [
        echo("before the restart"),
        () => {
          const marker = project.join("restarted");
          restarted = restart(marker);
          const command = `until [ -f '${marker}' ]; do sleep 0.05; done; echo server is back`;
          return { toolCall: { name: "bash", arguments: { command } } };
        },
        echo("after the restart"),
        { text: "Done." },
      ],
    });
    const run = await project.run("Echo twice; the server restarts in between.");
    await restarted;
    expect(run.code, run.stderr).toBe(0);
    const results = toolResultTexts(project.model.requests[3]!);
    expect(results[0]).toContain("Echo: before the restart");
    expect(results[1]).toContain("server is back");
    expect(results[2]).toContain("Echo: after the restart");
    expect(results[2]).not.toMatch(/session|error/i);
  });

  it("legacy SSE: a call after a restart succeeds at once; a stop shows as failed, then connection refused", async () => {
    server = await startServerEverything("sse");
    const stopped: Promise<void>[] = [];
    /** A bash step that waits until the test has stopped (and, unless for good, restarted) the server. */
    const bounce = (forGood: boolean) => () => {
      const marker = project.join(forGood ? "stopped" : "restarted");
      stopped.push(
        (async () => {
          const old = server as ServerEverythingHttp;
          await old.close();
          server = forGood ? undefined : await startServerEverything("sse", { port: old.port });
          await writeFile(marker, "done");
        })(),
      );
      const command = `until [ -f '${marker}' ]; do sleep 0.05; done; echo server bounced`;
      return { toolCall: { name: "bash", arguments: { command } } };
    };
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: { everything: { url: server.url, transport: "sse", requestTimeoutMs: 600_000 } },
      },
      steps: [
        echo("before the restart"),
        bounce(false),
        echo("after the restart"),
        bounce(true),
        { toolCall: { name: "mcp", arguments: {} } },
        echo("after the stop"),
        { text: "Done." },
      ],
    });
    const run = await project.run("Echo; the server restarts, then stops.");
    await Promise.all(stopped);
    expect(run.code, run.stderr).toBe(0);
    const result = (step: number) => toolResultTexts(project.model.requests[step]!).at(-1) ?? "";
    expect(result(1)).toContain("Echo: before the restart");
    expect(result(3)).toContain("Echo: after the restart");
    expect(result(5)).toMatch(/^- everything: failed\b.* ago: connection lost/m);
    expect(result(6)).toContain("connection refused — is the server running on that port?");
  });

  it("a call after the stdio server was killed mid-call starts it again and succeeds", async () => {
    let killed: Promise<number> | undefined;
    await using project = await createPiProject({
      host,
      adapterConfig: (paths) => ({
        mcpServers: {
          everything: everythingPidEntry(paths, { env: callMarkerEnv(paths) }),
        },
      }),
      steps: [
        () => {
          // Once the call has reached the server, kill it (the model's answer is sent meanwhile).
          killed = killWhenCalled(project.join("called"), project.pidDir);
          const args = { duration: 120, steps: 120 };
          return {
            toolCall: { name: "mcp", arguments: { tool: "everything_trigger-long-running-operation", args } },
          };
        },
        echo("after the crash"),
        { text: "Done." },
      ],
    });
    await writeFile(project.join("everything.mjs"), everythingWrapperScript());

    const run = await project.run("Run the long operation, then echo.");

    expect(run.code, run.stderr).toBe(0);
    const pid = await killed;
    const crashed = toolResultTexts(project.model.requests[1]!).at(-1);
    expect(crashed).toContain("may or may not have run");
    const after = toolResultTexts(project.model.requests[2]!).at(-1);
    expect(after).toContain("Echo: after the crash");
    expect(after).not.toContain("unavailable");
    const pids = await recordedPids(project.pidDir);
    expect(pids).toHaveLength(2);
    expect(pids).toContain(pid);
  });
});

/** The env that makes the wrapper write `<root>/called` when a tool call arrives. */
function callMarkerEnv(paths: { pidDir: string; join: (...parts: string[]) => string }) {
  return { FIXTURE_PID_DIR: paths.pidDir, FIXTURE_CALL_MARKER: paths.join("called") };
}

/** Waits for `marker` (a call reached the server), then kills the one server process with SIGKILL. */
async function killWhenCalled(marker: string, pidDir: string): Promise<number> {
  await vi.waitUntil(() => existsSync(marker), { timeout: 60_000, interval: 20 });
  const [pid] = await recordedPids(pidDir);
  process.kill(pid!, "SIGKILL");
  return pid!;
}
