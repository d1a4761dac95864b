/**
 * A server's description text as hosts show it. Descriptions often come
 * docstring-style — a newline first, every line indented, blank lines
 * around — so their first line as written is empty. Every place that shows
 * a description's first line (search results, the CLI's list, Pi's tools
 * command, the roster) takes it from `descriptionFirstLine`; whole texts
 * (describe) go through `dedentDescription`.
 */

/** The first line that is not blank, without its indentation or trailing spaces; "" for none. */
export function descriptionFirstLine(text: string | undefined): string {
  for (const line of (text ?? "").split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed) return trimmed;
  }
  return "";
}

/**
 * The text without its leading and trailing blank lines, the first line
 * without its indentation, and the rest without the indentation they share
 * (the first line is left out of that measure: docstrings often start right
 * after the quotes). Trailing spaces go; everything else stays as written.
 */
export function dedentDescription(text: string | undefined): string {
  const lines = (text ?? "").split(/\r?\n/).map((line) => line.trimEnd());
  const first = lines.findIndex((line) => line !== "");
  if (first < 0) return "";
  let last = lines.length - 1;
  while (lines[last] === "") last--;
  const body = lines.slice(first + 1, last + 1);
  const indents = body.filter((line) => line !== "").map((line) => line.length - line.trimStart().length);
  const common = indents.length ? Math.min(...indents) : 0;
  return [lines[first]!.trimStart(), ...body.map((line) => line.slice(common))].join("\n");
}
