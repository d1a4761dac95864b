/**
 * Prompts as the shell offers them: one slash command per MCP prompt,
 * `/mcp__<server>__<prompt>`, from what a server's listing offers. Pi-free.
 */
import type { ServerListing } from "@pi-mcp-adapter/catalog";
import type { RemotePrompt, ToolMetadata } from "@pi-mcp-adapter/core";

/** One prompt of one server, with the command that runs it. */
export interface PromptEntry {
  server: string;
  prompt: RemotePrompt;
  /** The slash command's name, without the `/`: `mcp__<server>__<prompt>`. */
  command: string;
}

/** `mcp__<server>__<prompt>`, characters a command name cannot hold becoming `_`. */
export function promptCommandName(server: string, prompt: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_.-]+/g, "_");
  return `mcp__${safe(server)}__${safe(prompt)}`;
}

/**
 * The prompts of a server's listing that its filters let through
 * (`includeTools` / `excludeTools` apply to prompts too: `metadata` holds
 * only the ones kept).
 */
export function promptEntries(
  server: string,
  listing: Pick<ServerListing, "prompts"> | undefined,
  metadata: readonly ToolMetadata[] | undefined,
): PromptEntry[] {
  const kept = new Set((metadata ?? []).filter((m) => m.kind === "prompt").map((m) => m.name));
  return (listing?.prompts ?? [])
    .filter((p) => kept.has(p.name))
    .map((prompt) => ({ server, prompt, command: promptCommandName(server, prompt.name) }));
}
