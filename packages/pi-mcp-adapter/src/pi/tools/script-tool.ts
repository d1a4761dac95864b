/**
 * The `mcpScript` tool (`settings.scriptMode: true`): the model sends plain
 * JavaScript; the runtime runs it in an isolated worker whose `tools` calls
 * go through the session's call pipeline. Registered only in script mode.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { runScriptRequest } from "@pi-mcp-adapter/runtime/startup";
// The tool's definition: the script package's `./tool` entry leaves its runner to load with the first script.
import {
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
} from "@pi-mcp-adapter/script/tool";
import type { RuntimeFor } from "../host/runtime-loading.js";

export function registerScriptTool(pi: ExtensionAPI, runtimeFor: RuntimeFor): void {
  pi.registerTool({
    name: SCRIPT_TOOL_NAME,
    label: "MCP script",
    description: SCRIPT_TOOL_DESCRIPTION,
    // Plain JSON Schema: both Pi lines accept it, and it avoids a runtime TypeBox import.
    parameters: SCRIPT_TOOL_PARAMETERS as never,
    async execute(_toolCallId, params, signal, _onUpdate, ctx) {
      const outcome = await runScriptRequest(await runtimeFor(ctx), params, signal);
      // The older Pi line ignores `isError` in results: throwing marks an error in both.
      if (outcome.isError) {
        throw new Error(
          outcome.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("\n"),
        );
      }
      return { content: outcome.content, details: outcome.details };
    },
  });
}
