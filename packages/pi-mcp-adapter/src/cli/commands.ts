/**
 * The CLI's commands, one row each: how its words become a proxy request
 * (or, for rows that are no proxy request, how they run). Usage text and
 * dispatch both come from this table.
 */
import type { AdapterRuntime, CallResult, ProxyParams } from "@pi-mcp-adapter/runtime";
import { listPrompts, runPrompt } from "./prompt-cli.js";

export interface CliCommand {
  name: string;
  /** Arguments as shown in the usage text. */
  args: string;
  summary: string;
  /** The request for the words after the command name; `server` is `--server`. */
  request?(words: string[], server: string | undefined): ProxyParams;
  /** Runs a row that is not a proxy request (used instead of `request`). */
  run?(runtime: AdapterRuntime, words: string[], server: string | undefined): Promise<CallResult>;
}

export const CLI_COMMANDS: readonly CliCommand[] = [
  { name: "status", args: "", summary: "list configured servers (default)", request: () => ({}) },
  {
    name: "search",
    args: "<words...>",
    summary: "find tools by words",
    request: (words, server) => ({ search: words.join(" "), server }),
  },
  {
    name: "describe",
    args: "<tool>",
    summary: "show a tool's description and parameters",
    request: ([tool = ""], server) => ({ describe: tool, server }),
  },
  {
    name: "call",
    args: "<tool> [json-args]",
    summary: `call a tool, e.g. call demo_add '{"a":1,"b":2}'`,
    request: ([tool = "", args], server) => ({ tool, args, server }),
  },
  {
    name: "prompts",
    args: "",
    summary: "list MCP prompts and their arguments",
    run: (runtime, _words, server) => listPrompts(runtime, server),
  },
  {
    name: "prompt",
    args: "<name> [args...]",
    summary: "print a prompt's message, e.g. prompt args-prompt Paris state=France",
    run: (runtime, [name = "", ...args], server) => runPrompt(runtime, name, args, server),
  },
];

export function findCliCommand(name: string): CliCommand | undefined {
  return CLI_COMMANDS.find((command) => command.name === name);
}

export function cliUsage(): string {
  const rows = CLI_COMMANDS.map((c) => `  ${`${c.name} ${c.args}`.trim().padEnd(26)}${c.summary}`);
  return [
    "Usage: pi-mcp-adapter [--config <file>] [--cwd <dir>] <command>",
    "",
    "Commands:",
    ...rows,
    "",
    "Options:",
    "  --config <file>   an extra config file that outranks every other source",
    "  --cwd <dir>       project directory (default: current directory)",
    "  --server <name>   limit search/describe/call/prompts to one server",
    "  -h, --help        show this help",
  ].join("\n");
}
