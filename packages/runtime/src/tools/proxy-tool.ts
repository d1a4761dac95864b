/**
 * The proxy tool as a host declares it: its name, its description with the
 * server roster, its JSON Schema (kept small — it is in every prompt) and the
 * parameters it takes. Loading this needs none of the runtime's call path,
 * so a host can declare the tool before any of that is loaded.
 */
import { type RosterServer, serverRoster } from "./server-roster.js";

export interface ProxyParams {
  search?: string;
  describe?: string;
  tool?: string;
  args?: unknown;
  server?: string;
  limit?: number;
  offset?: number;
  /** Treat `search` as a regular expression (unranked). */
  regex?: boolean;
  /** Show parameter shapes in search and describe output. */
  includeSchemas?: boolean;
  /** A server whose full instructions to show. */
  instructions?: string;
  /** A server to connect, or to list again when connected (after its tools changed). */
  connect?: string;
  /**
   * OAuth login for `server`: `auth-start`, then `auth-complete` with `args: { redirectUrl } | { code }`;
   * `ui-messages`: what MCP Apps sent since the last read; `install`: add the server at `url`
   * (named `server`, or after the URL's host) once the user agrees in a dialog;
   * `skill`: load an MCP skill, `args: { name, file? }`.
   */
  action?: string;
  /** The MCP endpoint to install (`action: "install"`). */
  url?: string;
}

export const PROXY_TOOL_NAME = "mcp";

/** `mcp({ action: "ui-messages" })`: the messages MCP Apps sent (queued until read). */
export const UI_MESSAGES_ACTION = "ui-messages";

/** `mcp({ action: "install", url })`: add a server, only after the user agrees (see the shell). */
export const INSTALL_ACTION = "install";

/** `mcp({ action: "skill", args: { name, file? } })`: load an MCP skill (SEP-2640), or one of its files. */
export const SKILL_ACTION = "skill";

/** The proxy tool's description without a server roster (see `proxyToolDescription`). */
export const PROXY_TOOL_DESCRIPTION =
  'Use tools of MCP servers. mcp({}) lists servers; mcp({search: "words"}) finds tools and resources; ' +
  'mcp({describe: "name"}) shows parameters; mcp({tool: "name", args: {...}}) calls one.';

/**
 * The proxy tool's description with the roster of `servers` (config order;
 * e.g. a startup snapshot's `servers`): the same servers, descriptions and
 * cached instructions always give the same text. See `server-roster.ts`.
 */
export function proxyToolDescription(servers: readonly RosterServer[]): string {
  return servers.length ? `${PROXY_TOOL_DESCRIPTION} ${serverRoster(servers)}` : PROXY_TOOL_DESCRIPTION;
}

// The description shows how `search`, `describe`, `tool` and `args` are used, so they carry none of their own.
export const PROXY_TOOL_PARAMETERS = {
  type: "object",
  properties: {
    search: { type: "string" },
    describe: { type: "string" },
    tool: { type: "string" },
    args: { type: ["object", "string"] },
    server: { type: "string", description: "Limit to one server" },
    limit: { type: "integer", minimum: 1 },
    offset: { type: "integer", minimum: 0 },
    regex: { type: "boolean" },
    includeSchemas: { type: "boolean" },
    instructions: { type: "string", description: "Server instructions to show" },
    connect: { type: "string", description: "Server to (re)connect" },
    action: {
      type: "string",
      enum: ["auth-start", "auth-complete", "ui-messages", "install", "skill"],
      description: "OAuth login; install url",
    },
    url: { type: "string" },
  },
  additionalProperties: false,
} as const;
