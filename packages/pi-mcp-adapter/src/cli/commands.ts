/**
 * The CLI's commands, one row each: how its words become a proxy request
 * (or, for rows that are no proxy request, how they run). Usage text, each
 * command's `--help`, flag checking and dispatch all come from this table.
 */
import type { ProxyParams } from "@pi-mcp-adapter/runtime/startup";
import { formatStats } from "../texts/stats-table.js";
import { authCli, logoutCli } from "./auth-cli.js";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError, EXIT, type ExitCode } from "./cli-error.js";
import { callResultOutput, reconnectCli } from "./connect-cli.js";
import { daemonCli } from "./daemon-cli.js";
import { helpRows } from "./help-columns.js";
import { listPrompts, runPrompt } from "./prompt-cli.js";
import { addCli, getCli, removeCli } from "./server-cli.js";
import { initCli, setupCli } from "./setup-cli.js";
import { listSkillsCli, showSkillCli } from "./skill-cli.js";
import { listCli, statusCli } from "./status-cli.js";
import { tokenCli } from "./token-cli.js";
import { trustCli } from "./trust-cli.js";
import { trustToolsCli } from "./trust-tools-cli.js";

/** A flag only some commands take; the global ones are in `GLOBAL_FLAGS`. */
export type CommandFlag =
  | "discover-host-configs"
  | "list"
  | "adopt"
  | "add"
  | "create-mcp-json"
  | "copy-pi-servers"
  | "project"
  | "yes"
  | "force"
  | "env"
  | "header"
  | "url"
  | "transport";

export interface CliCommand {
  name: string;
  /** Other names for the same row (`tools` for `list`). */
  aliases?: readonly string[];
  /** Arguments as shown in the usage text. */
  args: string;
  summary: string;
  /** More for `<command> --help`: what it does and never does. */
  details?: string;
  /** Command-specific flags this row accepts, with their help line. */
  flags?: readonly (readonly [CommandFlag, string])[];
  /**
   * True for commands that may start servers: when project servers await
   * approval, these say so on stderr and exit with 3.
   */
  startsServers?: boolean;
  /** The request for the words after the command name; `server` is `--server`. */
  request?(words: string[], server: string | undefined): ProxyParams;
  /** Runs a row that is not a proxy request (used instead of `request`). */
  run?(ctx: CliContext, words: string[]): Promise<CliOutput>;
}

export const CLI_COMMANDS: readonly CliCommand[] = [
  {
    name: "status",
    args: "",
    summary: "configured servers, their state and config problems (default)",
    details: "Reads config and the metadata cache; never starts a server.",
    run: (ctx) => statusCli(ctx),
  },
  {
    name: "list",
    aliases: ["tools"],
    args: "[server]",
    summary: "tools known from the metadata cache",
    details:
      "Lists what earlier runs (here or in Pi) cached; never starts a server. A server not listed yet says so.",
    run: (ctx, words) => listCli(ctx, words),
  },
  {
    name: "search",
    args: "<words...>",
    summary: "find tools by words",
    startsServers: true,
    request: (words, server) => ({
      search: required(words.join(" "), "search needs words to look for, e.g. search read file"),
      server,
    }),
  },
  {
    name: "describe",
    args: "<tool>",
    summary: "show a tool's description and parameters",
    startsServers: true,
    request: ([tool], server) => ({
      describe: required(tool, `describe needs a tool name ${FIND_TOOLS}`),
      server,
    }),
  },
  {
    name: "call",
    args: "<tool> [json-args]",
    summary: `call a tool, e.g. call demo_add '{"a":1,"b":2}'`,
    startsServers: true,
    request: ([tool, args], server) => ({
      tool: required(tool, `call needs a tool name ${FIND_TOOLS}`),
      args,
      server,
    }),
  },
  {
    name: "prompts",
    args: "",
    summary: "list MCP prompts and their arguments",
    startsServers: true,
    run: async (ctx) => callResultOutput(await listPrompts(await ctx.runtime(), ctx.options.server)),
  },
  {
    name: "prompt",
    args: "<name> [args...]",
    summary: "print a prompt's message, e.g. prompt args-prompt Paris state=France",
    startsServers: true,
    run: async (ctx, [name = "", ...args]) =>
      callResultOutput(await runPrompt(await ctx.runtime(), name, args, ctx.options.server)),
  },
  {
    name: "skills",
    args: "[server]",
    summary: "list the MCP skills servers offer (SEP-2640): name, server, URI, files",
    startsServers: true,
    run: async (ctx, [server]) => listSkillsCli(await ctx.runtime(), server ?? ctx.options.server),
  },
  {
    name: "skill",
    args: "<name> [file]",
    summary: "load one MCP skill (or one of its files), verified, e.g. skill docs-pdf-processing",
    startsServers: true,
    run: async (ctx, [name = "", file]) => showSkillCli(await ctx.runtime(), name, file),
  },
  {
    name: "reconnect",
    args: "[server]",
    summary: "connect now and list tools again (one server, or every enabled one)",
    details: "Refreshes the metadata cache that `list` and Pi's start-up read.",
    startsServers: true,
    run: (ctx, words) => reconnectCli(ctx, words),
  },
  {
    name: "auth",
    args: "<server>",
    summary: "log in to an OAuth server (prints the URL, waits for the browser or a pasted address)",
    startsServers: true,
    run: (ctx, words) => authCli(ctx, words),
  },
  {
    name: "logout",
    args: "<server>",
    summary: "delete a server's stored OAuth credentials and revoke them",
    run: (ctx, words) => logoutCli(ctx, words),
  },
  {
    name: "token",
    args: "set|show|clear <server>",
    summary: "the stored bearer token of a bearerTokenStore server (set reads it from stdin)",
    details:
      "set reads the token from a masked prompt or piped stdin, never from the command line, and binds it to the server's URL; show prints it masked; clear deletes it. It is kept in settings.oauthCredentialStore.",
    run: (ctx, words) => tokenCli(ctx, words),
  },
  {
    name: "init",
    args: "",
    summary: "add other hosts' configs (Cursor, Claude, …) to imports in the Pi agent dir's mcp-adapter.json",
    details:
      "Scans for Cursor, Claude Code, Claude Desktop, VS Code, Windsurf, opencode and Codex configs and writes the hosts that have servers into `imports`. Running it again changes nothing. Never starts a server or runs a !command.",
    flags: [["discover-host-configs", 'also set settings.hostConfigDiscovery to "on"']],
    run: (ctx) => initCli(ctx),
  },
  {
    name: "setup",
    args: "",
    summary: "what setup can do here; with flags, do it",
    details:
      "Without flags: host configs found, known servers, Pi's own mcp.json, and every config path in precedence order. Writes only the adapter's own files and a new .mcp.json.",
    flags: [
      ["list", "show the overview (the default)"],
      ["adopt", "<host>  add a host to imports (repeatable)"],
      [
        "add",
        "<server>  add a known server: deepwiki, context7, notion, github, chrome-devtools (repeatable)",
      ],
      ["project", "with --add: write to the project's .mcp.json instead of the agent dir's mcp-adapter.json"],
      ["create-mcp-json", "create a minimal .mcp.json in the project"],
      ["copy-pi-servers", "copy server definitions from Pi's own mcp.json into mcp-adapter.json"],
    ],
    run: (ctx) => setupCli(ctx),
  },
  {
    name: "add",
    args: "<name> -- <command> [args...] | <name> --url <url>",
    summary: "add a server to mcp-adapter.json (or, with --project, .mcp.json)",
    details:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax, shown as users type it
      'Examples: add github --env GITHUB_TOKEN=${GITHUB_TOKEN} -- npx -y @modelcontextprotocol/server-github\n          add docs --url https://docs.example.com/mcp --header "Authorization: Bearer ${DOCS_TOKEN}"\nEverything after -- is the command line, as it is. The entry is checked before writing; only it is written (comments and formatting elsewhere in the file stay). Nothing starts.',
    flags: [
      ["project", "write the project's .mcp.json instead of the agent dir's mcp-adapter.json"],
      ["env", "KEY=value  an environment variable for a command server (repeatable)"],
      ["header", '"Name: value"  an HTTP header for a --url server (repeatable)'],
      ["url", "<url>  an HTTP server instead of a command"],
      ["transport", "http|sse  with --url (default http, falling back to SSE)"],
      ["force", "replace a server of the same name"],
    ],
    run: (ctx, words) => addCli(ctx, words),
  },
  {
    name: "remove",
    args: "<name>",
    summary: "remove a server from mcp-adapter.json (or, with --project, .mcp.json)",
    details: "Only that server's lines change. A server defined in another file is named with that file.",
    flags: [["project", "remove it from the project's .mcp.json"]],
    run: (ctx, words) => removeCli(ctx, words),
  },
  {
    name: "get",
    args: "<name>",
    summary: "a server's definition and the file it comes from, secrets masked",
    details:
      "Env and header values, tokens and client secrets show as ****; references to environment variables show as written.",
    run: (ctx, words) => getCli(ctx, words),
  },
  {
    name: "trust",
    args: "[server...]",
    summary: "review and approve project servers (.mcp.json) so the CLI may start them",
    details:
      "Shows each project server awaiting approval with the command line it runs, and asks. Approvals are shared with Pi and hold until the definition changes.",
    flags: [["yes", "approve what is shown without asking"]],
    run: (ctx, words) => trustCli(ctx, words),
  },
  {
    name: "trust-tools",
    args: "<server> [tool...]",
    summary: "accept a server's changed or new tools (tool pinning), all or those named",
    details:
      "Tool pinning remembers each tool's description, parameters and annotations; when a server changes them, status lists the change and changed approval-gated or direct tools are held. This pins the tools as the server lists them now (from the metadata cache when it holds them, else by connecting).",
    startsServers: true,
    run: (ctx, words) => trustToolsCli(ctx, words),
  },
  {
    name: "daemon",
    args: "[status|stop]",
    summary: "the per-user daemon that runs shared servers: its servers and sessions, or stop it",
    details:
      "status (the default): whether the daemon runs, its servers and how many sessions use each. stop: ends the daemon and every server it runs; sessions using one start a new daemon at their next call. Neither starts anything.",
    run: (ctx, words) => daemonCli(words, ctx.environment.agentDir),
  },
  {
    name: "stats",
    args: "",
    summary: "call stats kept in settings.captureStats.file",
    run: async (ctx) => statsOutput(ctx),
  },
];

/** Options every command takes. */
export const GLOBAL_FLAGS: readonly (readonly [string, string])[] = [
  ["--config <file>", "an extra config file that outranks every other source"],
  ["--cwd <dir>", "project directory (default: current directory)"],
  ["--server <name>", "limit search/describe/call/prompts/list to one server"],
  ["--approve-project", "start this project's servers for this run without a saved approval"],
  ["--json", "machine-readable output (shapes in the README)"],
  ["-h, --help", "show help (also: <command> --help)"],
];

export const EXIT_CODES: readonly (readonly [ExitCode, string])[] = [
  [EXIT.ok, "success"],
  [
    EXIT.failed,
    "the command failed (a tool error, a server that did not start, a file that could not be written)",
  ],
  [EXIT.usage, "usage error (unknown command or flag, missing argument)"],
  [EXIT.approval, "project servers awaiting approval were not started (or `trust` was declined)"],
];

const FIND_TOOLS = "(see: pi-mcp-adapter search <words>, or pi-mcp-adapter list)";

/** A required argument; missing or blank, it is a usage error (exit 2). */
function required(word: string | undefined, missing: string): string {
  if (word?.trim()) return word;
  throw new CliError("cli_usage", missing);
}

export function findCliCommand(name: string): CliCommand | undefined {
  return CLI_COMMANDS.find((command) => command.name === name || command.aliases?.includes(name));
}

const signature = (c: CliCommand) => `${[c.name, ...(c.aliases ?? [])].join("|")} ${c.args}`.trim();

export function cliUsage(): string {
  return [
    "Usage: pi-mcp-adapter [options] <command>",
    "",
    "Commands:",
    ...helpRows(CLI_COMMANDS.map((c) => [signature(c), c.summary])),
    "",
    "Options:",
    ...helpRows(GLOBAL_FLAGS),
    "",
    "Exit codes:",
    ...EXIT_CODES.map(([code, text]) => `  ${code}  ${text}`),
  ].join("\n");
}

export function commandUsage(command: CliCommand): string {
  const lines = [`Usage: pi-mcp-adapter ${command.name} ${command.args}`.trimEnd(), "", command.summary];
  if (command.aliases?.length) lines.push(`Also: ${command.aliases.join(", ")}`);
  if (command.details) lines.push("", command.details);
  if (command.flags?.length) {
    lines.push("", "Flags:", ...helpRows(command.flags.map(([flag, text]) => [`--${flag}`, text])));
  }
  lines.push("", "Options:", ...helpRows(GLOBAL_FLAGS));
  return lines.join("\n");
}

/** `stats`: the stats file's rows, as a table or JSON, or where stats are instead. */
async function statsOutput(ctx: CliContext): Promise<CliOutput> {
  const stats = (await ctx.runtime()).stats;
  const json = { file: stats?.file ?? null, tools: stats?.summary() ?? [] };
  if (!stats) {
    return {
      text: 'Call stats are off: set "captureStats": true in an MCP config\'s settings (kept in .pi/mcp-tool-stats.json).',
      json,
    };
  }
  return { text: formatStats(stats.summary(), stats.file), json };
}
