/** Small builders shared by the transport tests. */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type ServerDefinition, ServerDefinitionSchema } from "@pi-mcp-adapter/core";
import { faultServerPath, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import type { TransportError } from "../src/index.js";

export function definition(fields: Partial<ServerDefinition> & Pick<ServerDefinition, "name" | "transport">) {
  return ServerDefinitionSchema.parse({
    source: { file: "test.json", key: `mcpServers.${fields.name}` },
    ...fields,
  });
}

export function fixtureStdio(
  name: string,
  env: Record<string, string> = {},
  extra: Partial<ServerDefinition> = {},
) {
  return definition({
    name,
    transport: "stdio",
    command: process.execPath,
    args: [stdioFixtureServerPath],
    env,
    ...extra,
  });
}

export function faultStdio(name: string, mode: string, env: Record<string, string> = {}) {
  return definition({
    name,
    transport: "stdio",
    command: process.execPath,
    args: [faultServerPath],
    env: { FAULT_MODE: mode, ...env },
  });
}

const require = createRequire(import.meta.url);
export const everythingBin = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

async function freePort(): Promise<number> {
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

/** Starts server-everything over HTTP (`streamableHttp` or `sse`) on a free port; resolves once it listens. */
export async function startEverythingHttp(mode: "streamableHttp" | "sse") {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingBin, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const deadline = Date.now() + 15_000;
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
    if (child.exitCode !== null) return;
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  };
  return { base: `http://127.0.0.1:${port}`, close, [Symbol.asyncDispose]: close };
}

/** The error a promise rejects with; fails the test if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  if (!outcome) throw new Error("expected a rejection, but the promise resolved");
  return outcome.error as TransportError;
}

export const v2ServerPath = fileURLToPath(new URL("./fixtures/v2-server.mjs", import.meta.url));

/** The SDK v2 fixture over Streamable HTTP (serves 2026-07-28 and, unless strict, 2025). */
export async function startV2Http(strict = false) {
  const child = spawn(process.execPath, [v2ServerPath, "http"], {
    env: { ...process.env, ...(strict ? { V2_STRICT: "1" } : {}) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = await Promise.race([
    createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value as string]),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("v2 fixture did not start")), 15_000),
    ),
  ]);
  const close = async () => {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  };
  return { url: (JSON.parse(line!) as { url: string }).url, close, [Symbol.asyncDispose]: close };
}
