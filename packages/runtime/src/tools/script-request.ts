/**
 * mcpScript on the runtime: the `ScriptHost` a script's `tools` API talks
 * to (search and describe on the catalog, calls through the call pipeline
 * with origin `script`), and the tool's dispatch from arguments to a
 * guarded result.
 *
 * A call approval refuses (headless sessions included: no dialog, so it
 * fails closed) reaches the script as `{ ok: false }` with the approval's
 * code; so does a tool error or a failure to reach the server. The script
 * decides what to do with it.
 */
import { describeError, type ToolMetadata } from "@pi-mcp-adapter/core";
import type { ScriptCallResult, ScriptHost } from "@pi-mcp-adapter/script";
import { formatScriptOutcome, parseScriptParams } from "@pi-mcp-adapter/script/tool";
import type { AdapterRuntime } from "../adapter-runtime.js";
import type { HostOutcome } from "../calls/call-result.js";
import { internalsOf } from "../runtime-internals.js";
import type { ScriptDetails } from "./tool-outcomes.js";

/** The host side of a script's `tools` API, backed by `runtime`. */
export function scriptHostFor(runtime: AdapterRuntime): ScriptHost {
  const shapes = internalsOf(runtime).outputShapes;
  return {
    async search({ query, server, limit, offset }) {
      const result = await runtime.catalog.search(query, { server, limit, offset });
      return {
        total: result.total,
        hits: result.hits.map(({ tool }) => ({
          path: tool.prefixedName,
          server: tool.server,
          name: tool.name,
          description: tool.description,
        })),
        ...(result.nextOffset !== undefined ? { nextOffset: result.nextOffset } : {}),
        ...(result.unavailable.length ? { unavailable: result.unavailable.map((u) => u.server) } : {}),
      };
    },
    async describe({ path, server }) {
      const tool = await runtime.catalog.resolve(path, server);
      const shape = shapes.get(tool.server, tool.name);
      return {
        ...describeTool(tool),
        ...(shape ? { observedOutputShape: shape } : {}),
      };
    },
    async call(path, args, { server, signal }): Promise<ScriptCallResult> {
      try {
        // The server's result as it came: the script's transfer budget bounds it, and its output is guarded.
        const result = await runtime.call(path, args, { server, signal, origin: "script", raw: true });
        const notes = textOf(result.content);
        const sent = result.details.mcpResult;
        if (!sent) {
          // Refused by approval, or a resource or prompt listed as a tool (read through the guard).
          if (result.isError) {
            return { ok: false, error: { code: result.details.approval ?? "tool_error", message: notes } };
          }
          const data = {
            content: result.content,
            isError: false,
            ...(result.structuredContent !== undefined
              ? { structuredContent: result.structuredContent }
              : {}),
          };
          return { ok: true, data };
        }
        const data = { ...sent, isError: sent.isError === true, ...(notes ? { notes } : {}) };
        if (data.isError) {
          const message =
            textOf(sent.content as { type: string; text?: string }[]) || "the tool reported an error";
          return { ok: false, error: { code: "tool_error", message }, data };
        }
        shapes.observe(
          result.details.server,
          result.details.name,
          sent.structuredContent ?? parseJson(textOf(sent.content as { type: string; text?: string }[])),
        );
        return { ok: true, data };
      } catch (error) {
        const code = (error as { code?: unknown } | undefined)?.code;
        return {
          ok: false,
          error: { code: typeof code === "string" ? code : "internal", message: describeError(error) },
        };
      }
    },
  };
}

/** Runs the `mcpScript` tool: checks its arguments, runs the script, bounds the output like any call's. */
export async function runScriptRequest(
  runtime: AdapterRuntime,
  params: unknown,
  signal?: AbortSignal,
): Promise<HostOutcome<ScriptDetails>> {
  const { code, timeoutMs } = parseScriptParams(params);
  const { runScript } = await import("@pi-mcp-adapter/script");
  const outcome = await runScript(code, scriptHostFor(runtime), { timeoutMs, signal });
  const guarded = await internalsOf(runtime).calls.guardOutput(
    { content: [{ type: "text", text: formatScriptOutcome(outcome) }], isError: !outcome.ok },
    { server: "mcpScript", tool: "mcpScript" },
  );
  return {
    ...guarded,
    details: {
      mode: "script",
      ok: outcome.ok,
      calls: outcome.calls,
      durationMs: outcome.durationMs,
      ...(outcome.error ? { error: outcome.error.code } : {}),
    },
  };
}

function describeTool(tool: ToolMetadata) {
  return {
    path: tool.prefixedName,
    server: tool.server,
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  };
}

/** The text parts of a content list, one a line. */
function textOf(content: readonly { type: string; text?: string }[] | undefined): string {
  return (content ?? [])
    .filter((c) => c.type === "text" && typeof c.text === "string")
    .map((c) => c.text)
    .join("\n");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
