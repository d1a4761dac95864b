/**
 * The grammar of `add`, shared by the CLI (`pi-mcp-adapter add …`) and Pi
 * (`/mcp-adapter add …`):
 *
 *     add <name> [--project] [--force] [--env K=V]… [--header "K: V"]… -- <command> [args…]
 *     add <name> [--project] [--force] [--header "K: V"]… --url <url> [--transport http|sse]
 *
 * Words are given as a shell splits them; everything after `--` is the
 * server's command line, taken as it is. The result is a server entry in the
 * config file's shape, not yet validated or written.
 */
import { parseArgs } from "node:util";
import { ConfigError } from "../errors.js";

export const ADD_SERVER_USAGE =
  'add <name> [--project] [--force] [--env K=V]… [--header "K: V"]… -- <command> [args…]\n' +
  'add <name> [--project] [--force] [--header "K: V"]… --url <url> [--transport http|sse]';

/** The flags of `add` (in `node:util` `parseArgs` form), so a host that parses its own argv accepts the same ones. */
export const ADD_SERVER_FLAGS = {
  project: { type: "boolean" },
  force: { type: "boolean" },
  env: { type: "string", multiple: true },
  header: { type: "string", multiple: true },
  url: { type: "string" },
  transport: { type: "string" },
} as const;

export interface AddServerFlags {
  project?: boolean;
  force?: boolean;
  env?: string[];
  header?: string[];
  url?: string;
  transport?: string;
}

export interface AddServerRequest {
  name: string;
  /** `project`: the project's `.mcp.json`; `user`: the agent dir's `mcp-adapter.json`. */
  scope: "user" | "project";
  /** Replace a server of the same name. */
  force: boolean;
  entry: Record<string, unknown>;
}

/** Parses the words after `add`. Throws `ConfigError("invalid_arguments")` saying what is wrong and the usage. */
export function parseAddServerArgs(words: readonly string[]): AddServerRequest {
  const dash = words.indexOf("--");
  const head = dash < 0 ? [...words] : words.slice(0, dash);
  const commandLine = dash < 0 ? [] : words.slice(dash + 1);
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof ADD_SERVER_FLAGS; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args: head, options: ADD_SERVER_FLAGS, allowPositionals: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  return addServerRequest(parsed.values, parsed.positionals, commandLine);
}

/**
 * Builds the request from flags already parsed (the CLI parses its whole
 * argv once): `names` are the words before `--`, `commandLine` those after.
 */
export function addServerRequest(
  flags: AddServerFlags,
  names: readonly string[],
  commandLine: readonly string[],
): AddServerRequest {
  const [name, ...stray] = names;
  if (!name) throw usageError("missing the server name");
  if (stray.length) {
    throw usageError(`unexpected "${stray.join(" ")}" (put the server's command after "--")`);
  }
  const [command, ...args] = commandLine;
  if (flags.url !== undefined && command !== undefined) {
    throw usageError("give either --url or a command after --, not both");
  }
  if (flags.url === undefined && command === undefined) {
    throw usageError('missing the server: a command after "--", or --url <url>');
  }
  const entry: Record<string, unknown> = {};
  if (flags.url !== undefined) {
    if (flags.env?.length)
      throw usageError("--env is for servers started from a command; an HTTP server takes --header");
    entry.url = flags.url;
    if (flags.transport !== undefined) {
      if (flags.transport !== "http" && flags.transport !== "sse") {
        throw usageError(`--transport must be http or sse, found "${flags.transport}"`);
      }
      entry.transport = flags.transport;
    }
  } else {
    if (flags.transport !== undefined) throw usageError("--transport goes with --url");
    if (flags.header?.length) throw usageError("--header is for HTTP servers (--url)");
    entry.command = command;
    if (args.length) entry.args = args;
  }
  if (flags.env?.length) entry.env = pairs(flags.env, "=", "--env", "KEY=value");
  if (flags.header?.length) entry.headers = pairs(flags.header, ":", "--header", '"Name: value"', true);
  return { name, scope: flags.project ? "project" : "user", force: flags.force === true, entry };
}

/** `KEY=value` / `Name: value` pairs; the value is never echoed in an error (it may be a secret). */
function pairs(
  items: readonly string[],
  separator: string,
  flag: string,
  shape: string,
  trimValue = false,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf(separator);
    const key = at < 0 ? "" : item.slice(0, at).trim();
    if (!key) throw usageError(`${flag} expects ${shape} (no name before "${separator}")`);
    const value = item.slice(at + 1);
    result[key] = trimValue ? value.trim() : value;
  }
  return result;
}

function usageError(message: string): ConfigError {
  return new ConfigError(
    "invalid_arguments",
    `${message}\nUsage: ${ADD_SERVER_USAGE.replaceAll("\n", "\n       ")}`,
  );
}
