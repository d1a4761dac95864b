/**
 * Pi as the runtime's `Host`: dialogs and notices from `ctx.ui`, the status
 * sink (`status-channels.ts`) and the approval broker on `pi.events`. `hasUI` is Pi's own answer:
 * false in print and json modes, where dialogs cannot be shown (calls
 * needing approval then fail closed); `--mode rpc` forwards dialogs as
 * `extension_ui_request`s. Sampling runs on Pi's own model (`pi-sampler.ts`);
 * a running call's progress shows on Pi's status line and in the call's
 * row (`running-rows.ts`). An MCP App's message starts a turn as the
 * user's message (a follow-up while the agent is busy). A URL an MCP
 * server asks the user to open (URL elicitation) opens in the browser where
 * one can be seen (`browser-opener.ts`). Pi's own skill names come from Pi,
 * so MCP skills are named around them (`skills/local-skills.ts`). Work that
 * can wait waits while the model waits on a tool call (`whenFree`, turn-gates.ts).
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Host } from "@pi-mcp-adapter/runtime";
import type { RunningRows } from "../render/running-rows.js";
import { localSkillNames } from "../skills/local-skills.js";
import { progressStatus } from "../status/footer-status.js";
import { browserOpener } from "./browser-opener.js";
import { piSampler } from "./pi-sampler.js";

export function piHost(
  pi: ExtensionAPI,
  ctx: ExtensionContext,
  status: Host["status"],
  rows?: RunningRows,
  agentDir?: string,
  whenFree?: Host["whenFree"],
): Host {
  const openUrl = browserOpener();
  return {
    hasUI: ctx.hasUI,
    dialogs: {
      confirm: (title, message, options) => ctx.ui.confirm(title, message, options),
      select: (title, choices, options) => ctx.ui.select(title, choices, options),
      input: (title, placeholder, options) => ctx.ui.input(title, placeholder, options),
    },
    notify: (message, level) => ctx.ui.notify(message, level),
    status,
    events: pi.events,
    sample: piSampler(ctx),
    ...(openUrl ? { openUrl } : {}),
    progress: (server, tool, text) => {
      const entry = progressStatus(server, tool, text);
      ctx.ui.setStatus(entry.key, entry.text);
      rows?.progress(server, tool, text);
    },
    startTurn: (text) => pi.sendUserMessage(text, ctx.isIdle() ? undefined : { deliverAs: "followUp" }),
    // Pi's own command: it loads extensions afresh, and with them the config files.
    reloadCommand: "/reload",
    ...(agentDir !== undefined ? { localSkillNames: () => localSkillNames(pi, agentDir) } : {}),
    ...(whenFree ? { whenFree } : {}),
  };
}
