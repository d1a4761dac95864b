/**
 * `/mcp-adapter add …` (the CLI's `add` grammar, from config, with words
 * quoted as in a shell) and `/mcp-adapter edit [user|project]` (the config
 * file in Pi's editor: JSONC accepted, checked before it is saved, nothing
 * written when it has an error). Either change is applied to the running
 * session at once.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { ConfigError, type ConfigProblem, formatProblem, readConfigText } from "@pi-mcp-adapter/config";
import type { AddServerRequest } from "@pi-mcp-adapter/config/setup";
import { type AdapterEnvironment, processEnvironment } from "@pi-mcp-adapter/core";
import { split } from "shlex";
import { hostProjectTrust } from "../host/project-trust-bridge.js";
import type { RuntimeFor } from "../host/runtime-loading.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export interface ServerEditOptions {
  runtimeFor: RuntimeFor;
  /** True when the adapter runs on an inline config, which no file change reaches. */
  inlineConfig: boolean;
  /** The host's environment: the user file is in its agent dir (default this process's). */
  environment?: AdapterEnvironment;
}

const NEW_FILE =
  '{\n  // Servers by name; comments and trailing commas are fine.\n  "mcpServers": {\n  }\n}\n';

export function serverEditSubcommands(options: ServerEditOptions): AdapterSubcommand[] {
  const refusedInline = (ctx: ExtensionContext) => {
    if (!options.inlineConfig) return false;
    ctx.ui.notify(
      "Not available: this adapter runs on an inline config (createMcpAdapter({ config })), which no file change reaches.",
      "warning",
    );
    return true;
  };
  // Config's writers load when a command runs, not with the extension.
  const setup = () => import("@pi-mcp-adapter/config/setup");
  const fileFor = async (scope: "user" | "project", ctx: ExtensionContext) => {
    if (scope === "project" && hostProjectTrust(ctx) === false) {
      throw new ConfigError(
        "untrusted_project",
        "Not changing this project's .mcp.json: the project is not trusted",
      );
    }
    return (await setup()).serverConfigFile(scope, ctx.cwd, options.environment ?? processEnvironment());
  };
  const applied = async (ctx: ExtensionContext) => {
    const runtime = await options.runtimeFor(ctx);
    await runtime.reload();
    return runtime;
  };

  const add: AdapterSubcommand = {
    name: "add",
    args: '<name> [--project] [--env K=V]… [--header "K: V"]… -- <command> [args…] | <name> --url <url>',
    summary: "add a server to mcp-adapter.json (or, with --project, .mcp.json) and use it at once",
    run: async (words, ctx, rest) => {
      if (refusedInline(ctx)) return;
      const { ADD_SERVER_USAGE, addServerToFile, parseAddServerArgs } = await setup();
      let request: AddServerRequest;
      try {
        request = parseAddServerArgs(split(rest ?? words.join(" ")));
      } catch (error) {
        const message =
          error instanceof ConfigError
            ? error.message
            : `${(error as Error).message}\nUsage: ${ADD_SERVER_USAGE}`;
        ctx.ui.notify(message.replaceAll("add <name>", "/mcp-adapter add <name>"), "warning");
        return;
      }
      const file = await fileFor(request.scope, ctx);
      const result = await addServerToFile(file, request.name, request.entry, { force: request.force });
      const runtime = await applied(ctx);
      const state = runtime.listings.summaries().find((s) => s.name === request.name)?.state ?? "not loaded";
      const done = result.replaced
        ? `Replaced MCP server "${request.name}" in`
        : `Added MCP server "${request.name}" to`;
      ctx.ui.notify(`${done} ${file}; applied to this session (${state}).`, "info");
    },
  };

  const edit: AdapterSubcommand = {
    name: "edit",
    args: "[user|project]",
    summary: "edit mcp-adapter.json (or the project's .mcp.json) in Pi's editor; checked before saving",
    run: async (words, ctx) => {
      if (refusedInline(ctx)) return;
      const [which = "user", ...stray] = words;
      if ((which !== "user" && which !== "project") || stray.length) {
        ctx.ui.notify("Usage: /mcp-adapter edit [user|project]", "warning");
        return;
      }
      const file = await fileFor(which, ctx);
      if (!ctx.hasUI) {
        ctx.ui.notify(
          `Editing needs Pi's editor; edit ${file} directly, then /mcp-adapter reload.`,
          "warning",
        );
        return;
      }
      const read = await readConfigText(file);
      if (read.kind === "error") throw new ConfigError("write_failed", formatProblem(read.problem));
      const before = read.kind === "ok" ? read.text : undefined;
      const edited = await ctx.ui.editor(`${file} (JSONC)`, before ?? NEW_FILE);
      if (edited === undefined || edited === (before ?? NEW_FILE)) {
        ctx.ui.notify(`${file} not changed.`, "info");
        return;
      }
      let warnings: ConfigProblem[];
      try {
        warnings = await (await setup()).replaceConfigText(file, before, edited, which);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        ctx.ui.notify(`${error.message}\nThe file was not changed.`, "error");
        return;
      }
      const runtime = await applied(ctx);
      const lines = [
        `Saved ${file}; applied to this session (${runtime.listings.summaries().length} servers configured).`,
      ];
      lines.push(...warnings.map((p) => `${p.severity}: ${formatProblem(p)}`));
      ctx.ui.notify(lines.join("\n"), warnings.length ? "warning" : "info");
    },
  };
  return [add, edit];
}
