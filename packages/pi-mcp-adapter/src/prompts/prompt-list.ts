/**
 * The prompt list `/mcp-adapter prompts` and the CLI's `prompts` print: every
 * prompt with its command's usage and its arguments, then the servers whose
 * prompts could not be listed.
 */
import type { CatalogView } from "@pi-mcp-adapter/runtime";
import type { PromptEntry } from "@pi-mcp-adapter/runtime/startup";
import { promptUsage } from "./prompt-arguments.js";

/** Every prompt with its usage and arguments, for `/mcp-adapter prompts` and the CLI. */
export function formatPromptList(
  entries: readonly PromptEntry[],
  unavailable: CatalogView["unavailable"] = [],
): string {
  const lines: string[] = [];
  if (entries.length === 0) lines.push("No MCP prompts.");
  else lines.push(`MCP prompts (${entries.length}):`);
  for (const { prompt, command } of entries) {
    const about = prompt.description ?? prompt.title;
    lines.push(`- ${promptUsage(command, prompt).split(" (or by name")[0]}${about ? ` — ${about}` : ""}`);
    for (const a of prompt.arguments ?? []) {
      lines.push(
        `    ${a.name} (${a.required ? "required" : "optional"})${a.description ? `: ${a.description}` : ""}`,
      );
    }
  }
  // An entry marked `sentence` names its server and is shown as is (as search shows it).
  for (const u of unavailable) {
    lines.push(u.sentence ? `(${u.error})` : `(server ${u.server} unavailable: ${u.error})`);
  }
  return lines.join("\n");
}
