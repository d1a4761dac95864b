#!/usr/bin/env node
/**
 * `pi-mcp-adapter`: the adapter's operations from a shell, without Pi.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { describeError } from "@pi-mcp-adapter/core";
import { createRuntime, headlessHost, runProxyRequest } from "@pi-mcp-adapter/runtime";
import { PACKAGE_VERSION } from "./package-version.js";

const USAGE = `Usage: pi-mcp-adapter [--config <file>] [--cwd <dir>] <command>

Commands:
  status                    list configured servers (default)
  search <words...>         find tools by words
  describe <tool>           show a tool's description and parameters
  call <tool> [json-args]   call a tool, e.g. call demo_add '{"a":1,"b":2}'

Options:
  --config <file>   an extra config file that outranks every other source
  --cwd <dir>       project directory (default: current directory)
  --server <name>   limit search/describe/call to one server
  -h, --help        show this help`;

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command = "status", ...rest] = positionals;
  const cwd = path.resolve(values.cwd ?? process.cwd());
  // No UI: calls needing approval fail closed, and no interactive capability is offered to servers.
  const host = headlessHost({ notify: (message, level) => process.stderr.write(`${level}: ${message}\n`) });
  const runtime = await createRuntime({
    cwd,
    configPath: values.config,
    host,
    client: { name: "pi-mcp-adapter", version: PACKAGE_VERSION },
  });
  try {
    const params = toParams(command, rest, values.server);
    if (!params) {
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
      return 2;
    }
    const outcome = await runProxyRequest(runtime, params);
    for (const block of outcome.content) {
      process.stdout.write(block.type === "text" ? `${block.text}\n` : `[image ${block.mimeType}]\n`);
    }
    return outcome.isError ? 1 : 0;
  } catch (error) {
    process.stderr.write(`error: ${describeError(error)}\n`);
    return 1;
  } finally {
    await runtime.shutdown();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: "string" },
      cwd: { type: "string" },
      server: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function toParams(command: string, rest: string[], server: string | undefined) {
  switch (command) {
    case "status":
      return {};
    case "search":
      return { search: rest.join(" "), server };
    case "describe":
      return { describe: rest[0] ?? "", server };
    case "call":
      return { tool: rest[0] ?? "", args: rest[1], server };
    default:
      return undefined;
  }
}

process.exitCode = await main(process.argv.slice(2));
