/**
 * `pi-mcp-adapter trust-tools <server> [tool...]`: accepts the tools a server
 * lists now (all of them, or those named) as its pinned tools, after tool
 * pinning reported them changed or new. It prints what it accepted, each
 * change with its short diff. The server is listed from the metadata cache
 * when it can be (what status showed), else connected.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";
import { toolChangeSummary } from "@pi-mcp-adapter/runtime/startup";
import type { CliContext, CliOutput } from "./cli-context.js";

export async function trustToolsCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const [server, ...tools] = words;
  if (!server) throw new McpAdapterError("cli_usage", "trust-tools needs a server name");
  const runtime = await ctx.runtime();
  if (!runtime.servers.definition(server)) {
    const known =
      runtime.listings
        .summaries()
        .map((s) => s.name)
        .join(", ") || "none";
    return {
      text: `No MCP server named "${server}" (configured: ${known}).`,
      json: { error: `No MCP server named "${server}"`, accepted: [] },
      exitCode: 1,
    };
  }
  const failure = (await runtime.catalog.view(server)).unavailable[0];
  if (failure) {
    return {
      text: `Server ${server} could not be listed: ${failure.error}`,
      json: { error: failure.error, accepted: [] },
      exitCode: 1,
    };
  }
  const changes = (runtime.pins.report().find((r) => r.server === server)?.changes ?? []).filter(
    (c) => tools.length === 0 || tools.includes(c.tool),
  );
  try {
    await runtime.pins.accept(server, tools.length ? tools : undefined);
  } catch (error) {
    const reason = `The tools of ${server} were not accepted: ${(error as Error).message}`;
    return { text: reason, json: { error: reason, accepted: [] }, exitCode: 1 };
  }
  const lines = changes.map((c) => `- ${c.tool}: ${c.kind === "new" ? "new tool" : toolChangeSummary(c)}`);
  return {
    text: changes.length
      ? [`Accepted the current tools of ${server}:`, ...lines].join("\n")
      : `No changed tools on ${server}; its tools are pinned as they are now.`,
    json: {
      server,
      accepted: changes.map((c) => ({ tool: c.tool, kind: c.kind, change: toolChangeSummary(c) })),
    },
  };
}
