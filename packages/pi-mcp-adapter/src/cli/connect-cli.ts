/**
 * The CLI rows that talk to servers: a proxy result (or prompt result) as CLI
 * output, and `reconnect [server]`.
 */
import { describeError } from "@pi-mcp-adapter/core";
import type { HostOutcome } from "@pi-mcp-adapter/runtime";
import type { CliContext, CliOutput } from "./cli-context.js";
import { EXIT } from "./cli-error.js";

/** `--json`: `{ ok, text, structuredContent, details }`; exit code 1 when the result is an error. */
export function callResultOutput(result: HostOutcome<unknown>): CliOutput {
  const text = result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`))
    .join("\n");
  return {
    text,
    json: {
      ok: !result.isError,
      text,
      structuredContent: result.structuredContent ?? null,
      details: result.details,
    },
    exitCode: result.isError ? EXIT.failed : EXIT.ok,
  };
}

export async function reconnectCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const runtime = await ctx.runtime();
  const only = words[0] ?? ctx.options.server;
  const names = only
    ? [only]
    : runtime.listings
        .summaries()
        .filter((s) => s.state !== "disabled")
        .map((s) => s.name);
  const results = await Promise.all(
    names.map(async (name) => {
      try {
        await runtime.reconnect(name);
        const toolCount = runtime.listings.summaries().find((s) => s.name === name)?.toolCount ?? 0;
        return { name, ok: true, toolCount, error: null };
      } catch (error) {
        return { name, ok: false, toolCount: null, error: describeError(error) };
      }
    }),
  );
  const lines = results.map((r) =>
    r.ok
      ? `${r.name}: connected, ${r.toolCount} tool${r.toolCount === 1 ? "" : "s"}`
      : `${r.name}: ${r.error}`,
  );
  if (!names.length) lines.push("No enabled MCP servers to connect.");
  return {
    text: lines.join("\n"),
    json: { servers: results },
    exitCode: results.some((r) => !r.ok) ? EXIT.failed : EXIT.ok,
  };
}
