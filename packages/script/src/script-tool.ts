/**
 * The `mcpScript` tool as a host registers it: name, description,
 * parameters (plain JSON Schema, small — it is in every prompt), argument
 * checking, and the text the model reads back. Also the package's `./tool`
 * entry: a host registers the tool without loading the runner.
 */
import { ScriptArgumentsError } from "./errors.js";

export { ScriptArgumentsError, type ScriptArgumentsErrorCode } from "./errors.js";

import type { ScriptOutcome } from "./run-script.js";
import { DEFAULT_SCRIPT_TIMEOUT_MS, MAX_SCRIPT_TIMEOUT_MS } from "./script-limits.js";

export const SCRIPT_TOOL_NAME = "mcpScript";

export const SCRIPT_TOOL_DESCRIPTION =
  "Run plain JavaScript that makes several MCP tool calls with logic between them in one turn. " +
  "Inside (use await): tools.search({query, server?, limit?, offset?}) → {hits:[{path, server, name, description}]}; " +
  "tools.describe({path, server?}) → parameters; tools.call(path, args, {server}?) → " +
  "{ok: true, data} (data = the MCP result: content, structuredContent, isError) or {ok: false, error: {code, message}, data?}; " +
  "tools.<path>(args) is tools.call. " +
  "emit(value) shows a value; the result is the emitted values and the returned value. " +
  "No require, import, process, file system or network.";

export const SCRIPT_TOOL_PARAMETERS = {
  type: "object",
  properties: {
    code: { type: "string", description: "JavaScript body of an async function (await and return allowed)" },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      maximum: MAX_SCRIPT_TIMEOUT_MS,
      description: `Deadline in ms (default ${DEFAULT_SCRIPT_TIMEOUT_MS})`,
    },
  },
  required: ["code"],
  additionalProperties: false,
} as const;

export interface ScriptParams {
  code: string;
  timeoutMs?: number;
}

/** Checks the tool's arguments; throws a `ScriptArgumentsError` naming the bad field. */
export function parseScriptParams(raw: unknown): ScriptParams {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ScriptArgumentsError(
      "invalid_arguments",
      "mcpScript arguments must be an object: { code, timeoutMs? }",
    );
  }
  const { code, timeoutMs } = raw as Record<string, unknown>;
  if (typeof code !== "string" || code.trim() === "") {
    throw new ScriptArgumentsError(
      "invalid_code",
      "mcpScript: code must be a non-empty string of JavaScript",
    );
  }
  if (timeoutMs === undefined) return { code };
  if (
    typeof timeoutMs !== "number" ||
    !Number.isInteger(timeoutMs) ||
    timeoutMs < 1 ||
    timeoutMs > MAX_SCRIPT_TIMEOUT_MS
  ) {
    throw new ScriptArgumentsError(
      "invalid_timeout",
      `mcpScript: timeoutMs must be an integer from 1 to ${MAX_SCRIPT_TIMEOUT_MS}`,
    );
  }
  return { code, timeoutMs };
}

/**
 * What the model reads: emitted values (strings as they are, other values
 * as JSON), the returned value, console lines, and the error if it failed.
 */
export function formatScriptOutcome(outcome: ScriptOutcome): string {
  const parts: string[] = [];
  if (!outcome.ok && outcome.error)
    parts.push(`mcpScript failed (${outcome.error.code}): ${outcome.error.message}`);
  for (const value of outcome.emitted) parts.push(show(value));
  if (outcome.ok && outcome.value !== null && outcome.value !== undefined)
    parts.push(`Result: ${show(outcome.value)}`);
  if (outcome.logs.length) {
    parts.push(
      ["Console:", ...outcome.logs.map((l) => (l.level === "log" ? l.text : `[${l.level}] ${l.text}`))].join(
        "\n",
      ),
    );
  }
  if (parts.length === 0) parts.push("mcpScript finished with no output (emit values or return one)");
  return parts.join("\n");
}

function show(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
