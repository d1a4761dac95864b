/**
 * `/mcp-adapter [subcommand]` (and `/mcp` where Pi has no MCP of its own):
 * one table of subcommands, from which dispatch, the usage text and the
 * editor's completions all come.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";

export interface AdapterSubcommand {
  name: string;
  /** Arguments as shown in the usage text, e.g. `<server>`. */
  args: string;
  summary: string;
  /**
   * Runs with the words after the subcommand's name (split on spaces) and
   * the same text unsplit, for subcommands that read quoted words; may throw
   * (shown as an error notice).
   */
  run(words: string[], ctx: ExtensionContext, rest?: string): Promise<void>;
}

/** The usage of every subcommand, one per line. */
export function adapterUsage(table: readonly AdapterSubcommand[], command = "mcp-adapter"): string {
  return table.map((s) => `/${command} ${`${s.name} ${s.args}`.trim()} — ${s.summary}`).join("\n");
}

/** Runs the subcommand `raw` names; no words means the first row (status). */
export async function runAdapterCommand(
  table: readonly AdapterSubcommand[],
  raw: string,
  ctx: ExtensionContext,
): Promise<void> {
  const text = raw.trim();
  const [name, ...words] = text.split(/\s+/).filter(Boolean);
  const subcommand = name === undefined ? table[0] : table.find((s) => s.name === name);
  if (!subcommand) {
    ctx.ui.notify(`Unknown subcommand "${name}". Usage:\n${adapterUsage(table)}`, "warning");
    return;
  }
  try {
    await subcommand.run(words, ctx, name === undefined ? "" : text.slice(name.length).trim());
  } catch (error) {
    ctx.ui.notify(`pi-mcp-adapter: ${describeError(error)}`, "error");
  }
}

/** The one server name a subcommand takes, or `undefined` after telling the user its usage. */
export function oneServer(words: string[], usage: string, ctx: ExtensionContext): string | undefined {
  if (words.length === 1) return words[0];
  ctx.ui.notify(`Usage: ${usage}`, "warning");
  return undefined;
}

/** Registers `/name` over `table`, completing subcommand names in the editor. */
export function registerAdapterCommand(
  pi: ExtensionAPI,
  name: string,
  description: string,
  table: readonly AdapterSubcommand[],
): void {
  pi.registerCommand(name, {
    description,
    getArgumentCompletions: (prefix) => {
      if (/\s/.test(prefix)) return null;
      const items = table
        .filter((s) => s.name.startsWith(prefix))
        .map((s) => ({ value: s.name, label: s.name, description: s.summary }));
      return items.length ? items : null;
    },
    handler: (args, ctx) => runAdapterCommand(table, args, ctx),
  });
}
