/**
 * `/mcp-adapter tools [server]`: the tools of every server as text, each
 * marked direct or proxy. Without a server it lists what is already known
 * (live or cached) and connects nothing; naming a server lists it, even if
 * that means connecting it.
 */
import { describeError } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { descriptionFirstLine, directSelection } from "@pi-mcp-adapter/runtime/startup";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

/** The tool lines of one server: `name — description [direct]`, descriptions cut to one line. */
async function serverLines(runtime: AdapterRuntime, name: string): Promise<string[]> {
  const summary = runtime.listings.summaries().find((s) => s.name === name);
  if (!summary) return [`${name}: not configured`];
  if (summary.state === "disabled") return [`${name}: disabled`];
  let tools: { name: string; description: string }[];
  try {
    const view = await runtime.catalog.view(name);
    const failed = view.unavailable.find((u) => u.server === name);
    if (failed) return [`${name} (${summary.state}): ${failed.error}`];
    tools = view.tools.filter((t) => t.kind === "tool" && t.server === name);
  } catch (error) {
    return [`${name}: ${describeError(error)}`];
  }
  const definition = runtime.servers.definition(name);
  const selection = definition ? directSelection(definition, runtime.catalog.direct) : undefined;
  const direct = (tool: string) =>
    selection !== undefined && (selection.names === true || selection.names.includes(tool));
  const state = runtime.listings.summaries().find((s) => s.name === name)?.state ?? summary.state;
  const head = `${name} (${state}, ${tools.length} tool${tools.length === 1 ? "" : "s"}):`;
  return [
    head,
    ...tools.map((t) => {
      const description = descriptionFirstLine(t.description);
      const cut = description.length > 100 ? `${description.slice(0, 99)}…` : description;
      return `  ${t.name}${cut ? ` — ${cut}` : ""}${direct(t.name) ? " [direct]" : ""}`;
    }),
  ];
}

export function toolsSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "tools",
    args: "[server]",
    summary: "list tools (one server, or every listed one), direct or proxy",
    run: async (words, ctx) => {
      if (words.length > 1) {
        ctx.ui.notify("Usage: /mcp-adapter tools [server]", "warning");
        return;
      }
      const runtime = await runtimeFor(ctx);
      if (words[0]) {
        ctx.ui.notify((await serverLines(runtime, words[0])).join("\n"), "info");
        return;
      }
      const servers = runtime.listings.summaries();
      if (!servers.length) {
        ctx.ui.notify("No MCP servers configured.", "info");
        return;
      }
      const lines: string[] = [];
      for (const s of servers) {
        // Only servers already listed (live or cached): a bare listing starts nothing.
        if (s.state !== "disabled" && s.toolCount === undefined) {
          lines.push(`${s.name} (${s.state}): not listed yet — /mcp-adapter tools ${s.name} lists it`);
        } else {
          lines.push(...(await serverLines(runtime, s.name)));
        }
      }
      ctx.ui.notify(lines.join("\n"), "info");
    },
  };
}
