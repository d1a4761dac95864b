/**
 * The published reference server `@modelcontextprotocol/server-everything`:
 * its entry script for stdio configs, and a runner for its HTTP modes on a
 * free 127.0.0.1 port (it binds every interface, so the port is picked here).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";

/** The server's entry script: `node <path>` serves stdio; add `streamableHttp` or `sse` for HTTP. */
export const serverEverythingPath: string = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

export interface ServerEverythingHttp extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The MCP endpoint: `<base>/mcp` (Streamable HTTP) or `<base>/sse`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts server-everything over `mode`; resolves once it answers HTTP, rejects with its output if it cannot.
 * `port` starts it where an earlier one ran (a server restarted at the same URL).
 */
export async function startServerEverything(
  mode: "streamableHttp" | "sse",
  options: { port?: number } = {},
): Promise<ServerEverythingHttp> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [serverEverythingPath, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill("SIGKILL");
        throw new Error(`server-everything ${mode} did not start: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const close = async () => {
    // Killed by a signal, a child has a `signalCode` and no `exitCode`: a second close must not wait for another exit.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    url: `${base}/${mode === "sse" ? "sse" : "mcp"}`,
    port,
    close,
    [Symbol.asyncDispose]: close,
  };
}
