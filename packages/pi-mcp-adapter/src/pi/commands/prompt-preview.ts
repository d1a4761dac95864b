/**
 * The preview a `/mcp__<server>__<prompt>` command shows before anything
 * reaches the conversation: the prompt's messages as the server returned
 * them (control sequences stripped, each part folded after a few lines
 * with a "… N more lines" marker), in Pi's own selector (both Pi lines; in
 * RPC mode a client's `select` request) with **Use prompt** and **Cancel**.
 * Only Use prompt lets the command add the messages; Esc counts as Cancel.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

export const USE_PROMPT = "Use prompt";
export const CANCEL_PROMPT = "Cancel";

/** Lines of one message part shown before the rest is folded. */
export const PREVIEW_PART_LINES = 12;
/** Characters of one line shown before it is cut. */
const PREVIEW_LINE_CHARS = 240;

/** The preview body: each part's text (images named), folded and made terminal-safe. */
export function promptPreviewText(content: readonly { type: string; text?: string }[]): string {
  const parts = content.map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`));
  return parts.map(foldPart).join("\n\n");
}

function foldPart(text: string): string {
  const lines = stripControlSequences(text)
    .replace(/\t/g, "  ")
    .split("\n")
    .map((line) => line.trimEnd())
    .map((line) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS - 1)}…` : line));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length <= PREVIEW_PART_LINES) return lines.join("\n");
  // Folding one line would only replace it with the marker.
  const shown = lines.slice(0, PREVIEW_PART_LINES - 1);
  const hidden = lines.length - shown.length;
  return [...shown, `… ${hidden} more lines`].join("\n");
}

/** Shows the preview of `command`'s prompt; true when the user chose Use prompt. */
export async function confirmPromptUse(
  ctx: Pick<ExtensionContext, "ui">,
  command: string,
  content: readonly { type: string; text?: string }[],
): Promise<boolean> {
  const title = `/${command}: what the prompt adds to the conversation\n\n${promptPreviewText(content)}`;
  const choice = await ctx.ui.select(title, [USE_PROMPT, CANCEL_PROMPT]);
  return choice === USE_PROMPT;
}
