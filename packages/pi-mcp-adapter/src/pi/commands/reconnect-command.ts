/**
 * `/mcp-adapter reconnect [server]`: connect afresh and list the tools again
 * (one server, or every enabled one), which also refreshes the cache and,
 * unless `freezeDirectTools` holds them, the direct tools.
 */
import { describeError } from "@pi-mcp-adapter/core";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export function reconnectSubcommand(runtimeFor: RuntimeFor): AdapterSubcommand {
  return {
    name: "reconnect",
    args: "[server]",
    summary: "connect again and refresh tools (one server, or all)",
    run: async (words, ctx) => {
      if (words.length > 1) {
        ctx.ui.notify("Usage: /mcp-adapter reconnect [server]", "warning");
        return;
      }
      const runtime = await runtimeFor(ctx);
      const names = words.length
        ? words
        : runtime.listings
            .summaries()
            .filter((s) => s.state !== "disabled")
            .map((s) => s.name);
      if (!names.length) {
        ctx.ui.notify("No enabled MCP servers to reconnect.", "info");
        return;
      }
      const lines = await Promise.all(
        names.map(async (name) => {
          try {
            await runtime.reconnect(name);
            const count = runtime.listings.summaries().find((s) => s.name === name)?.toolCount ?? 0;
            return { ok: true, text: `${name}: reconnected, ${count} tool${count === 1 ? "" : "s"}` };
          } catch (error) {
            return { ok: false, text: `${name}: ${describeError(error)}` };
          }
        }),
      );
      const failed = lines.some((l) => !l.ok);
      ctx.ui.notify(lines.map((l) => l.text).join("\n"), failed ? "warning" : "info");
    },
  };
}
