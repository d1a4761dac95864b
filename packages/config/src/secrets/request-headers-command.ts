/**
 * `requestHeadersCommand` (carried over from pi-mcp-adapter 2.x): a trusted
 * program that computes headers for each HTTP request, e.g. a request
 * signature. It gets `{"version":1,"method","url","bodyBase64"}` on stdin and
 * prints a JSON object of header names to string values; those headers are
 * set last, over any other. It runs for every request (its answer may depend
 * on the exact body), and once more when the server answers 401, so a
 * credential it caches is renewed at once — as for `!command` secrets. What
 * it prints never reaches a message: errors say only why it failed.
 */
import { z } from "zod";
import { ConfigError } from "../errors.js";
import { createSecretCommandRunner, type SecretCommandRunner } from "./secret-command.js";
import type { SecretFetch } from "./secret-headers.js";

export const RequestHeadersCommandSchema = z.object({
  command: z.string().min(1, "must not be empty"),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(1).max(60_000).optional(),
});
export type RequestHeadersCommand = z.infer<typeof RequestHeadersCommandSchema>;

/** What a header command may print (2.x allowed 64 KiB). */
export const REQUEST_HEADERS_MAX_BYTES = 64 * 1024;

export interface RequestHeadersFetchOptions {
  /** Server name, for messages. */
  server: string;
  /** The command with `${VAR}` already expanded in `command`, `args` and `env`. */
  command: RequestHeadersCommand;
  /** Environment the command starts from (its `env` is laid over it). */
  baseEnv: NodeJS.ProcessEnv;
  cwd?: string;
  /** Runs the command (tests); default spawns it without a shell. */
  run?: SecretCommandRunner;
}

/** `fetch` with the command's headers set on every request. */
export function requestHeadersFetch(options: RequestHeadersFetchOptions, fetch?: SecretFetch): SecretFetch {
  const send: SecretFetch = fetch ?? ((url, init) => globalThis.fetch(url, init));
  const run =
    options.run ??
    createSecretCommandRunner({ timeoutMs: options.command.timeoutMs, maxBytes: REQUEST_HEADERS_MAX_BYTES });
  const env = { ...options.baseEnv, ...options.command.env };
  const headersFor = async (request: Request, body: Buffer, init: RequestInit | undefined) => {
    const envelope = {
      version: 1,
      method: request.method.toUpperCase(),
      url: request.url,
      bodyBase64: body.toString("base64"),
    };
    let printed: string;
    try {
      printed = await run(options.command.command, {
        args: options.command.args ?? [],
        env,
        cwd: options.cwd,
        input: JSON.stringify(envelope),
      });
    } catch (error) {
      throw failure(options.server, (error as Error).message, error);
    }
    const headers = new Headers(init?.headers);
    for (const [name, value] of parseHeaders(options.server, printed)) headers.set(name, value);
    // The exact bytes the command saw are sent (and can be sent again after a 401).
    return { ...init, headers, ...(init?.body == null ? {} : { body }) };
  };
  return async (url, init) => {
    const request = new Request(
      url,
      init?.body instanceof ReadableStream ? ({ ...init, duplex: "half" } as RequestInit) : init,
    );
    const body = Buffer.from(await request.arrayBuffer());
    const response = await send(url, await headersFor(request, body, init));
    if (response.status !== 401) return response;
    await response.body?.cancel().catch(() => {});
    return send(url, await headersFor(request, body, init));
  };
}

/** The printed JSON object as header pairs; a reason (never the text) when it is not one. */
function parseHeaders(server: string, printed: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(printed);
  } catch {
    throw failure(server, "printed something that is not JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw failure(server, "must print a JSON object of header names to values");
  }
  const entries = Object.entries(parsed);
  const notString = entries.find(([, value]) => typeof value !== "string");
  if (notString)
    throw failure(server, `printed a non-string value for header "${notString[0].slice(0, 60)}"`);
  try {
    new Headers(entries as [string, string][]);
  } catch {
    throw failure(server, "printed an invalid header name or value");
  }
  return entries as [string, string][];
}

function failure(server: string, reason: string, cause?: unknown): ConfigError {
  return new ConfigError(
    "secret_failed",
    `MCP server "${server}": requestHeadersCommand ${reason}`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * What `prepareConnection` hands the transport: `${VAR}` expanded now in the
 * command, its arguments and its environment (a missing variable fails the
 * connect), then the wrapper for any fetch.
 */
export function requestHeadersWrapper(
  server: string,
  configured: RequestHeadersCommand,
  expand: (value: string, field: string) => string,
  baseEnv: NodeJS.ProcessEnv,
  cwd: string | undefined,
): (fetch?: SecretFetch) => SecretFetch {
  const field = "requestHeadersCommand";
  const command: RequestHeadersCommand = {
    ...configured,
    command: expand(configured.command, `${field}.command`),
    args: configured.args?.map((arg, i) => expand(arg, `${field}.args.${i}`)),
    env: configured.env
      ? Object.fromEntries(
          Object.entries(configured.env).map(([k, v]) => [k, expand(v, `${field}.env.${k}`)]),
        )
      : undefined,
  };
  return (fetch) => requestHeadersFetch({ server, command, baseEnv, cwd }, fetch);
}
