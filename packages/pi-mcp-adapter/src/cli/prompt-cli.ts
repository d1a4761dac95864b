/**
 * The CLI's `prompts` and `prompt <name> [args...]`: the prompt list, and one
 * prompt's message printed as it would reach the model. A prompt is named by
 * its prompt name (with `--server` when several servers have it) or by its
 * slash command, `mcp__<server>__<prompt>`. Arguments are the shell's words,
 * positional or `key=value`.
 */
import type { AdapterRuntime, CallResult, HostOutcome } from "@pi-mcp-adapter/runtime";
import { parsePromptArguments, quoteWord } from "../prompts/prompt-arguments.js";
import { formatPromptList } from "../prompts/prompt-list.js";
import { promptUserMessage } from "../prompts/prompt-message.js";
import { CliError } from "./cli-error.js";

/** What the CLI's prompt commands tell `--json`: the list, one prompt's message, or the failed get. */
type PromptOutcome =
  | HostOutcome<{ mode: "prompts" } | { mode: "prompt"; server: string; prompt: string }>
  | CallResult;

export async function listPrompts(
  runtime: AdapterRuntime,
  server: string | undefined,
): Promise<PromptOutcome> {
  const listed = await runtime.catalog.prompts(server);
  return textOutcome(formatPromptList(listed.prompts, listed.unavailable), { mode: "prompts" as const });
}

export async function runPrompt(
  runtime: AdapterRuntime,
  name: string,
  words: string[],
  server: string | undefined,
): Promise<PromptOutcome> {
  if (!name) throw new CliError("cli_usage", "prompt needs a prompt name (see: pi-mcp-adapter prompts)");
  const { prompts, unavailable } = await runtime.catalog.prompts(server);
  const matches = prompts.filter((p) => p.command === name || p.prompt.name === name);
  if (matches.length > 1) {
    const servers = matches.map((p) => p.server).join(", ");
    throw new CliError(
      "ambiguous_prompt",
      `Prompt "${name}" exists on several servers (${servers}); pass --server.`,
    );
  }
  const entry = matches[0];
  if (!entry) {
    const missing = unavailable.length
      ? ` (unavailable: ${unavailable.map((u) => u.server).join(", ")})`
      : "";
    throw new CliError(
      "unknown_prompt",
      `No MCP prompt named "${name}"${missing}; see: pi-mcp-adapter prompts`,
    );
  }
  // The shell already split the words; quoting them again keeps each one whole for the parser.
  const parsed = parsePromptArguments(words.map(quoteWord).join(" "), entry.prompt, entry.command);
  if (!parsed.ok) throw new CliError("invalid_prompt_args", parsed.message);
  const result = await runtime.run({
    target: { kind: "prompt", server: entry.server, name: entry.prompt.name },
    args: parsed.args,
  });
  if (result.isError) return result;
  const message = promptUserMessage(result);
  const text =
    typeof message === "string"
      ? message
      : message.map((p) => (p.type === "text" ? p.text : `[image ${p.mimeType}]`)).join("\n");
  return textOutcome(text, { mode: "prompt" as const, server: entry.server, prompt: entry.prompt.name });
}

/** A prompt command's text as the outcome `callResultOutput` prints. */
function textOutcome<D>(text: string, details: D): HostOutcome<D> {
  return { content: [{ type: "text", text }], isError: false, details };
}
