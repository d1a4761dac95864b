/** Small builders shared by the transport tests. */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type ServerDefinition, ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { faultServerPath, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { type ConnectOptions, connectServer, type TransportError } from "../src/index.js";

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

/** A `ConnectionManager`'s `connect`: `connectServer` with these options. */
export function connectWith(options: ConnectOptions = {}) {
  return (server: ServerDefinition, signal: AbortSignal) => connectServer(server, options, signal);
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

/** The SDK v2 fixture (or another script taking `http`) over Streamable HTTP (serves 2026-07-28 and, unless strict, 2025). */
export async function startV2Http(strict = false, script = v2ServerPath, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, "http"], {
    env: { ...process.env, ...(strict ? { V2_STRICT: "1" } : {}), ...env },
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

/** The text blocks of a tool result, joined. */
export const text = (result: { content: { type: string; text?: unknown }[] }) =>
  result.content.map((c) => (c.type === "text" ? String(c.text) : "")).join("");
