/**
 * `/mcp-adapter watch [<server> <uri>]` and `/mcp-adapter unwatch <server> <uri>`:
 * watch a resource for changes (a notice when it changes, a one-line note
 * for the model's next turn; see the runtime's resource-watches.ts), stop,
 * and, without arguments, list the session's watches.
 */

import type { RuntimeFor } from "../host/runtime-loading.js";
import { formatWatches } from "../render/watch-list.js";
import type { AdapterSubcommand } from "./adapter-command.js";

/** The server (first word) and URI (the rest) of `rest`, or undefined after telling the usage. */
function serverAndUri(rest: string, usage: string, notify: (text: string) => void) {
  const match = /^(\S+)\s+(\S.*)$/.exec(rest.trim());
  if (match?.[1] && match[2]) return { server: match[1], uri: match[2].trim() };
  notify(`Usage: ${usage}`);
  return undefined;
}

export function watchSubcommands(runtimeFor: RuntimeFor): AdapterSubcommand[] {
  const watchUsage = "/mcp-adapter watch <server> <uri>";
  const unwatchUsage = "/mcp-adapter unwatch <server> <uri>";
  return [
    {
      name: "watch",
      args: "[<server> <uri>]",
      summary: "watch a resource for changes (no arguments: list watches)",
      run: async (_words, ctx, rest = "") => {
        const runtime = await runtimeFor(ctx);
        if (!rest.trim()) return void ctx.ui.notify(formatWatches(runtime.watches.list()), "info");
        const target = serverAndUri(rest, watchUsage, (text) => ctx.ui.notify(text, "warning"));
        if (!target) return;
        await runtime.watches.watch(target.server, target.uri);
        ctx.ui.notify(
          `Watching ${target.server} · ${target.uri}: a notice when it changes, and a note for the model's next turn (until the session ends).`,
          "info",
        );
      },
    },
    {
      name: "unwatch",
      args: "<server> <uri>",
      summary: "stop watching a resource",
      run: async (_words, ctx, rest = "") => {
        const target = serverAndUri(rest, unwatchUsage, (text) => ctx.ui.notify(text, "warning"));
        if (!target) return;
        const runtime = await runtimeFor(ctx);
        const ended = await runtime.watches.unwatch(target.server, target.uri);
        ctx.ui.notify(
          ended
            ? `Stopped watching ${target.server} · ${target.uri}.`
            : `${target.server} · ${target.uri} was not watched.\n${formatWatches(runtime.watches.list())}`,
          ended ? "info" : "warning",
        );
      },
    },
  ];
}
