/**
 * The proxy tool's dispatch: from its arguments (proxy-tool.ts) to an
 * adapter operation, and the operation's text back.
 */
import type { AdapterRuntime } from "../adapter-runtime.js";
import { textResult as text } from "../calls/call-result.js";
import { RuntimeError } from "../errors.js";
import { formatDescribe, formatInstructions, formatSearch, formatServerDetails } from "../format/format.js";
import { formatStatus } from "../format/status-text.js";
import { formatToolChanges, toolChangeWarning } from "../format/tool-changes.js";
import { internalsOf } from "../runtime-internals.js";
import { formatDebugStderr } from "../servers/stderr-tails.js";
import { INSTALL_ACTION, type ProxyParams, SKILL_ACTION, UI_MESSAGES_ACTION } from "./proxy-tool.js";
import { runSkillRequest, skillArgs } from "./skill-request.js";
import type { ProxyDetails, ProxyOutcome } from "./tool-outcomes.js";

export async function runProxyRequest(
  runtime: AdapterRuntime,
  params: ProxyParams,
  signal?: AbortSignal,
  /** The host's id of the model's tool call (kept with an MCP task the call starts). */
  callId?: string,
): Promise<ProxyOutcome> {
  if (params.action === UI_MESSAGES_ACTION) {
    const { messages, dropped } = internalsOf(runtime).calls.uiMessages();
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
  if (params.action === SKILL_ACTION) {
    const result = await runSkillRequest(runtime, {
      ...skillArgs(parseArgs(params.args), params.server),
      ...(signal ? { signal } : {}),
    });
    return { ...result, details: { mode: "call", tool: result.details.name, ...result.details } };
  }
  if (params.action !== undefined) {
    const [answer, mode] = await runAuthAction(runtime, params);
    return text<ProxyDetails>(answer, { mode });
  }
  if (params.connect !== undefined) {
    await runtime.reconnect(params.connect);
    const count = (await runtime.catalog.view(params.connect)).tools.length;
    return text<ProxyDetails>(`Connected ${params.connect}: ${count} tool${count === 1 ? "" : "s"} listed.`, {
      mode: "connect",
      server: params.connect,
      toolCount: count,
    });
  }
  if (params.tool !== undefined) {
    const args = parseArgs(params.args);
    const result = await runtime.call(params.tool, args, {
      server: params.server,
      signal,
      details: true,
      ...(callId ? { callId } : {}),
    });
    return { ...result, details: { mode: "call", tool: result.details.name, ...result.details } };
  }
  if (params.describe !== undefined) {
    const tool = await runtime.catalog.resolve(params.describe, params.server);
    const described = formatDescribe(tool, { includeSchemas: params.includeSchemas });
    const change = tool.kind === "tool" ? runtime.pins.changeOf(tool.server, tool.name) : undefined;
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
    const result = await runtime.catalog.search(params.search, params);
    return bounded(runtime, formatSearch(params.search, result, { includeSchemas: params.includeSchemas }), {
      mode: "search",
      total: result.total,
      hits: result.hits.map((h) => h.tool.prefixedName),
      ...(result.nextOffset !== undefined ? { nextOffset: result.nextOffset } : {}),
    });
  }
  if (params.instructions !== undefined) {
    const instructions = await runtime.catalog.instructions(params.instructions);
    return bounded(runtime, formatInstructions(params.instructions, instructions), {
      mode: "instructions",
      server: params.instructions,
    });
  }
  if (params.server !== undefined) {
    const view = await runtime.catalog.view(params.server);
    const summary = runtime.listings.summaries().find((s) => s.name === params.server);
    const instructions = view.unavailable.length
      ? undefined
      : await runtime.catalog.instructions(params.server);
    const details = formatServerDetails(params.server, summary, view, instructions);
    const stderr = formatDebugStderr(params.server, runtime.servers.debugStderr(params.server));
    return text<ProxyDetails>(stderr ? `${details}\n${stderr}` : details, {
      mode: "server",
      server: params.server,
    });
  }
  const status = [
    formatStatus(runtime.listings.summaries(), runtime.servers.problems, internalsOf(runtime).now()),
    ...formatToolChanges(runtime.pins.report()),
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
  const guarded = await internalsOf(runtime).calls.guardOutput(
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
