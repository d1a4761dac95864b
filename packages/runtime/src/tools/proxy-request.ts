/**
 * The proxy tool's input: its JSON Schema (kept small — it is in every
 * prompt) and the dispatch from arguments to an adapter operation.
 */
import type { AdapterRuntime } from "../adapter-runtime.js";
import { textResult as text } from "../calls/call-result.js";
import { RuntimeError } from "../errors.js";
import {
  formatDescribe,
  formatInstructions,
  formatSearch,
  formatServerDetails,
  formatStatus,
} from "../format/format.js";
import { formatToolChanges, toolChangeWarning } from "../format/tool-changes.js";
import { formatDebugStderr } from "../servers/stderr-tails.js";
import { type RosterServer, serverRoster } from "./server-roster.js";
import type { ProxyDetails, ProxyOutcome } from "./tool-outcomes.js";

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
   * (named `server`, or after the URL's host) once the user agrees in a dialog.
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
      enum: ["auth-start", "auth-complete", "ui-messages", "install"],
      description: "OAuth login to server; install url",
    },
    url: { type: "string" },
  },
  additionalProperties: false,
} as const;

export async function runProxyRequest(
  runtime: AdapterRuntime,
  params: ProxyParams,
  signal?: AbortSignal,
): Promise<ProxyOutcome> {
  if (params.action === UI_MESSAGES_ACTION) {
    const { messages, dropped } = runtime.uiMessages();
    // The ui package loads here, not at start (a session that opened no app has no messages to format).
    const { formatUiMessages } = await import("@pi-mcp-adapter/ui");
    return text<ProxyDetails>(formatUiMessages(messages, dropped), { mode: UI_MESSAGES_ACTION, messages });
  }
  if (params.action === INSTALL_ACTION) {
    // Writing the user's config needs the user's yes: a host with a dialog handles this action itself.
    throw new RuntimeError(
      "invalid_args",
      "Installing a server needs the user's confirmation, and this session has no dialog; " +
        `ask the user to run: pi-mcp-adapter add <name> --url ${(params.url ?? "<url>").slice(0, 200)}`,
    );
  }
  if (params.action !== undefined) {
    const [answer, mode] = await runAuthAction(runtime, params);
    return text<ProxyDetails>(answer, { mode });
  }
  if (params.connect !== undefined) {
    await runtime.reconnect(params.connect);
    const count = (await runtime.catalog(params.connect)).tools.length;
    return text<ProxyDetails>(`Connected ${params.connect}: ${count} tool${count === 1 ? "" : "s"} listed.`, {
      mode: "connect",
      server: params.connect,
      toolCount: count,
    });
  }
  if (params.tool !== undefined) {
    const args = parseArgs(params.args);
    const result = await runtime.call(params.tool, args, { server: params.server, signal, details: true });
    return { ...result, details: { mode: "call", tool: result.details.name, ...result.details } };
  }
  if (params.describe !== undefined) {
    const tool = await runtime.resolve(params.describe, params.server);
    const described = formatDescribe(tool, { includeSchemas: params.includeSchemas });
    const change = tool.kind === "tool" ? runtime.toolChange(tool.server, tool.name) : undefined;
    return bounded(
      runtime,
      change
        ? `${toolChangeWarning(tool.server, change)}
${described}`
        : described,
      {
        mode: "describe",
        server: tool.server,
        tool: tool.name,
      },
    );
  }
  if (params.search !== undefined) {
    const result = await runtime.search(params.search, params);
    return bounded(runtime, formatSearch(params.search, result, { includeSchemas: params.includeSchemas }), {
      mode: "search",
      total: result.total,
      hits: result.hits.map((h) => h.tool.prefixedName),
      ...(result.nextOffset !== undefined ? { nextOffset: result.nextOffset } : {}),
    });
  }
  if (params.instructions !== undefined) {
    const instructions = await runtime.instructions(params.instructions);
    return bounded(runtime, formatInstructions(params.instructions, instructions), {
      mode: "instructions",
      server: params.instructions,
    });
  }
  if (params.server !== undefined) {
    const view = await runtime.catalog(params.server);
    const summary = runtime.servers().find((s) => s.name === params.server);
    const instructions = view.unavailable.length ? undefined : await runtime.instructions(params.server);
    const details = formatServerDetails(params.server, summary, view, instructions);
    const stderr = formatDebugStderr(params.server, runtime.debugStderr(params.server));
    return text<ProxyDetails>(stderr ? `${details}\n${stderr}` : details, {
      mode: "server",
      server: params.server,
    });
  }
  const status = [
    formatStatus(runtime.servers(), runtime.problems),
    ...formatToolChanges(runtime.toolChanges()),
  ];
  return text<ProxyDetails>(status.join("\n"), { mode: "status" });
}

/**
 * Describe, search and instructions output carries text servers wrote
 * (descriptions, instructions), so it is bounded like a call's result: the
 * output guard's inline caps, the full text in a spill file, and a line
 * saying it was cut.
 */
async function bounded(
  runtime: AdapterRuntime,
  answer: string,
  details: Extract<ProxyDetails, { mode: "describe" | "search" | "instructions" }>,
): Promise<ProxyOutcome> {
  const server = "server" in details ? details.server : "mcp";
  const guarded = await runtime.guardOutput(
    { content: [{ type: "text", text: answer }] },
    { server, tool: details.mode },
  );
  return { content: guarded.content, isError: false, details };
}

/** `auth-start` / `auth-complete` (with `args: { redirectUrl } | { code }`) for `server`. */
async function runAuthAction(
  runtime: AdapterRuntime,
  params: ProxyParams,
): Promise<[string, "auth-start" | "auth-complete"]> {
  const action = params.action as string;
  const answer = await runtime.oauth?.proxyAction(action, params.server, parseArgs(params.args));
  // The wiring answers its two actions only (and traces the others as unknown).
  if (answer !== undefined && (action === "auth-start" || action === "auth-complete"))
    return [answer, action];
  throw new RuntimeError(
    "invalid_args",
    runtime.oauth
      ? `Unknown action "${action.slice(0, 40)}": use "auth-start", "auth-complete" or "ui-messages"`
      : "OAuth is not available in this session (see /mcp-adapter for the config problem)",
  );
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === "") return {};
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new RuntimeError(
        "invalid_args",
        `args must be a JSON object; got a string that is not JSON: ${raw.slice(0, 80)}`,
      );
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RuntimeError("invalid_args", "args must be a JSON object");
  }
  return value as Record<string, unknown>;
}
