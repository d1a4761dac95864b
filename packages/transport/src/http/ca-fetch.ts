/**
 * A server's own `fetch` for its private CA (`caFile`): requests to the
 * server's origin — its MCP endpoint and the OAuth endpoints it serves
 * itself (the SDK sends its auth requests through the transport's fetch) —
 * trust the CAs in the bundle, through an `https.Agent` of their own (Node's
 * global fetch cannot be given a CA, and undici would add 2 MB to every
 * install for this one option). Other origins and every other server keep
 * the process's trust.
 */
import { readFile } from "node:fs/promises";
import { Agent, request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { describeError } from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
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
  const agent = new Agent({ ca, keepAlive: true });
  const serverFetch = async (input: string | URL, init?: RequestInit, redirects = 0): Promise<Response> => {
    if (new URL(input).origin !== origin) return inner(input, init);
    const response = await httpsFetch(new Request(input, init), agent);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || !location || init?.redirect === "manual") return response;
    await response.body?.cancel();
    if (redirects >= MAX_REDIRECTS || init?.redirect === "error") {
      throw new TypeError(`fetch failed: too many redirects or redirect not allowed (${input})`);
    }
    const next = new URL(location, input).href;
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without a body.
    const asGet =
      response.status === 303 ||
      (response.status !== 307 && response.status !== 308 && init?.method === "POST");
    return serverFetch(next, asGet ? { ...init, method: "GET", body: undefined } : init, redirects + 1);
  };
  return (input, init) => serverFetch(input, init);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const NO_BODY = new Set([101, 204, 205, 304]);

/** One HTTPS request through `agent`, answered as a fetch `Response` whose body streams (SSE included). */
async function httpsFetch(request: Request, agent: Agent): Promise<Response> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      request.url,
      { method: request.method, headers: Object.fromEntries(request.headers), agent, signal: request.signal },
      (incoming) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          for (const one of [value ?? []].flat()) headers.append(name, one);
        }
        const status = incoming.statusCode ?? 502;
        const stream = NO_BODY.has(status) || request.method === "HEAD" ? null : Readable.toWeb(incoming);
        if (!stream) incoming.resume();
        resolve(
          new Response(stream as ReadableStream<Uint8Array> | null, {
            status,
            statusText: incoming.statusMessage ?? "",
            headers,
          }),
        );
      },
    );
    outgoing.on("error", (error) =>
      reject(
        request.signal.aborted ? request.signal.reason : new TypeError("fetch failed", { cause: error }),
      ),
    );
    outgoing.end(body);
  });
}
