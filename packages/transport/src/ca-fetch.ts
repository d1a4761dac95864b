/**
 * A server's own `fetch` for its private CA (`caFile`): requests to the
 * server's origin — its MCP endpoint and the OAuth endpoints it serves
 * itself (the SDK sends its auth requests through the transport's fetch) —
 * trust the CAs in the bundle, through an undici `Agent` of their own. Other
 * origins and every other server keep the process's trust.
 */
import { readFile } from "node:fs/promises";
import { describeError } from "@pi-mcp-adapter/core";
import { Agent, fetch as undiciFetch } from "undici";
import { TransportError } from "./errors.js";
import type { FetchLike } from "./http-shape-probe.js";

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** Reads the bundle (again: it may have changed since config loaded) and returns the server's fetch. */
export async function caFetch(
  server: string,
  serverUrl: string,
  caFile: string,
  inner: FetchLike = fetch,
): Promise<FetchLike> {
  let ca: string;
  try {
    ca = await readFile(caFile, "utf8");
  } catch (error) {
    throw new TransportError(
      "connect_failed",
      server,
      `Server "${server}": CA file "${caFile}" cannot be read: ${describeError(error)}`,
      { cause: error },
    );
  }
  if (!PEM_CERTIFICATE.test(ca)) {
    throw new TransportError(
      "connect_failed",
      server,
      `Server "${server}": CA file "${caFile}" holds no PEM certificate`,
    );
  }
  const origin = new URL(serverUrl).origin;
  const dispatcher = new Agent({ connect: { ca } });
  return (input, init) => {
    if (new URL(input).origin !== origin) return inner(input, init);
    return undiciFetch(input, { ...init, dispatcher } as never) as unknown as Promise<Response>;
  };
}
