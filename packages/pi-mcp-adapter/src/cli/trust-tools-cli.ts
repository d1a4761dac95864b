/**
 * `pi-mcp-adapter trust-tools <server> [tool...]`: accepts the tools a server
 * lists now (all of them, or those named) as its pinned tools, after tool
 * pinning reported them changed or new. It prints what it accepted, each
 * change with its short diff. The server is listed from the metadata cache
 * when it can be (what status showed), else connected.
 */
import { toolChangeSummary } from "@pi-mcp-adapter/runtime/startup";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError, EXIT, errorJson } from "./cli-error.js";

export async function trustToolsCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const [server, ...tools] = words;
  if (!server) throw new CliError("cli_usage", "trust-tools needs a server name");
  const runtime = await ctx.runtime();
  if (!runtime.servers.definition(server)) {
    const known =
      runtime.listings
        .summaries()
        .map((s) => s.name)
        .join(", ") || "none";
    return {
      text: `No MCP server named "${server}" (configured: ${known}).`,
      json: errorJson("unknown_server", `No MCP server named "${server}"`, { accepted: [] }),
      exitCode: EXIT.failed,
    };
  }
  const failure = (await runtime.catalog.view(server)).unavailable[0];
  if (failure) {
    return {
      text: `Server ${server} could not be listed: ${failure.error}`,
      json: errorJson("server_unavailable", failure.error, { accepted: [] }),
      exitCode: EXIT.failed,
    };
  }
  const changes = (runtime.pins.report().find((r) => r.server === server)?.changes ?? []).filter(
    (c) => tools.length === 0 || tools.includes(c.tool),
  );
  try {
    await runtime.pins.accept(server, tools.length ? tools : undefined);
  } catch (error) {
    const reason = `The tools of ${server} were not accepted: ${(error as Error).message}`;
    return {
      text: reason,
      json: errorJson("accept_failed", reason, { accepted: [] }),
      exitCode: EXIT.failed,
    };
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
