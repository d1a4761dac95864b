/**
 * A real gateway for e2e tests: the published `mcp-proxy` (an exact dev
 * dependency) serving server-everything, which it runs on stdio, over
 * Streamable HTTP (`/mcp`) and SSE (`/sse`) on a free 127.0.0.1 port. Each
 * server-everything it starts records its pid (the fixtures' wrapper), so a
 * test can kill the upstream and check that nothing is left running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { freePort, isProcessAlive, recordedPids, waitForExit } from "@pi-mcp-adapter/test-kit";
import { everythingWrapperScript } from "./fixtures.js";

const proxyBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("mcp-proxy/package.json")),
  "dist",
  "bin",
  "mcp-proxy.mjs",
);

export interface McpProxyGateway extends AsyncDisposable {
  readonly port: number;
  /** The pid of the running mcp-proxy. */
  readonly pid: number;
  /** `http://127.0.0.1:<port>/mcp` or `/sse`. */
  url(endpoint: "mcp" | "sse"): string;
  /** Pids of every server-everything this gateway started, dead or alive. */
  upstreamPids(): Promise<number[]>;
  /** Stops mcp-proxy (SIGTERM, as a supervisor would) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops mcp-proxy; throws when it or a server it started is still running afterwards. */
  close(): Promise<void>;
}

/**
 * Starts mcp-proxy in front of server-everything; `dir` (an existing, empty temp dir) holds its pid
 * files; `options` are more mcp-proxy flags (e.g. `["--apiKey", key]`).
 */
export async function startMcpProxy(dir: string, options: string[] = []): Promise<McpProxyGateway> {
  const wrapper = path.join(dir, "everything.mjs");
  await writeFile(wrapper, everythingWrapperScript());
  const env = { ...process.env, FIXTURE_PID_DIR: dir };
  const launch = (port: number) =>
    listening(
      spawn(
        process.execPath,
        [
          proxyBin,
          "--port",
          String(port),
          "--host",
          "127.0.0.1",
          ...options,
          "--",
          process.execPath,
          wrapper,
        ],
        {
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      ),
      port,
    );
  let port = await freePort();
  let child: ChildProcess;
  // The free port may be taken between picking and binding it: pick another then.
  for (let attempt = 1; ; attempt++) {
    try {
      child = await launch(port);
      break;
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(error))) throw error;
      port = await freePort();
    }
  }
  const upstreamPids = () => recordedPids(dir);
  const close = async () => {
    await stop(child);
    const left = await waitForExit(await upstreamPids(), 15_000);
    if (left.length > 0) throw new Error(`mcp-proxy left server-everything running: pids ${left.join(", ")}`);
  };
  return {
    port,
    get pid() {
      return child.pid ?? 0;
    },
    url: (endpoint) => `http://127.0.0.1:${port}/${endpoint}`,
    upstreamPids,
    async restart() {
      await stop(child);
      child = await launch(port);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Resolves once mcp-proxy answers `/ping` on `port`; rejects with its output if it exits first. */
async function listening(child: ChildProcess, port: number): Promise<ChildProcess> {
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`mcp-proxy exited before it listened on port ${port}: ${output}`);
    }
    const answered = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return child;
    if (Date.now() > deadline) {
      await stop(child);
      throw new Error(`mcp-proxy did not listen on port ${port} within 60 s: ${output}`);
    }
    // Poll again soon, or at once when the process ends.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
}

/** SIGTERM, then SIGKILL if it has not exited after 15 s; resolves when the process is gone. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
  if (child.pid !== undefined && isProcessAlive(child.pid))
    throw new Error(`mcp-proxy ${child.pid} still runs`);
}
