/**
 * Server instructions (from `initialize`) at three lengths: a one-line head for
 * server lists (`mcp({})`), a longer preview for `mcp({server})`, and the full
 * text for `mcp({instructions})`.
 */

export const INSTRUCTIONS_HEAD_CHARS = 120;
export const INSTRUCTIONS_PREVIEW_CHARS = 1200;

/** The first line or sentence, cut to `max` characters. */
export function instructionsHead(text: string | undefined, max = INSTRUCTIONS_HEAD_CHARS): string {
  const flat = (text ?? "")
    .trim()
    .split(/\n\s*\n|\n/, 1)[0]!
    .replace(/\s+/g, " ");
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return cut(sentence, max);
}

/** The text with whitespace tidied, cut to `max` characters at a line or word end when possible. */
export function instructionsPreview(text: string | undefined, max = INSTRUCTIONS_PREVIEW_CHARS): string {
  return cut(
    (text ?? "")
      .trim()
      .replace(/[ \t]+/g, " ")
      .replace(/\n{3,}/g, "\n\n"),
    max,
  );
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const end = Math.max(slice.lastIndexOf("\n"), slice.lastIndexOf(" "));
  return `${end > max / 2 ? slice.slice(0, end) : slice}…`;
}
