/**
 * The recorder in front of a stdio server (`fixtures/wire-log-proxy.mjs`):
 * its path, and the messages it logged, read back.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** Run `node <wireLogProxyPath> <log file> <command> [args…]` instead of the server's own command line. */
export const wireLogProxyPath = fileURLToPath(new URL("../fixtures/wire-log-proxy.mjs", import.meta.url));

export interface WireLogEntry {
  from: "client" | "server";
  message: {
    id?: string | number;
    method?: string;
    params?: Record<string, unknown>;
    result?: unknown;
    error?: unknown;
  };
}

/** What the proxy logged so far (none before the first message). */
export async function readWireLog(file: string): Promise<WireLogEntry[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as WireLogEntry);
}

/** The server's answer to the client request of `method` whose params match `params`, if it has answered. */
export function answerTo(
  log: WireLogEntry[],
  method: string,
  params: Record<string, unknown> = {},
): WireLogEntry["message"] | undefined {
  const request = log.find(
    (e) =>
      e.from === "client" &&
      e.message.method === method &&
      Object.entries(params).every(([key, value]) => e.message.params?.[key] === value),
  );
  if (request?.message.id === undefined) return undefined;
  return log.find((e) => e.from === "server" && e.message.id === request.message.id && !e.message.method)
    ?.message;
}
