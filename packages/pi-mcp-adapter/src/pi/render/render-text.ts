/**
 * Terminal-safe text for what the adapter draws itself (panel, result rows):
 * control characters from server output removed, and lines cut to a width
 * in terminal cells (wide CJK and emoji count two, combining marks none), so
 * a line never exceeds what Pi gives the component.
 */

/** Removes escape sequences and control characters (keeps newlines; tabs become spaces). */
export function plainText(text: string): string {
  return (
    text
      // CSI, OSC and other escape sequences a server's output may carry.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-_]/g, "")
      .replace(/\t/g, "  ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
      .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, "")
  );
}

/** Terminal cells one code point takes. */
export function cellWidth(codePoint: number): number {
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200f)) return 0;
  if (codePoint >= 0xfe00 && codePoint <= 0xfe0f) return 0;
  if (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1faff) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += cellWidth(char.codePointAt(0) ?? 0);
  return width;
}

/** Cuts plain `text` to `width` cells, ending in `…` when cut. */
export function fit(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return "";
  let out = "";
  let used = 0;
  for (const char of text) {
    const w = cellWidth(char.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Coloured pieces of one line, cut together to `width` cells (the last piece kept ends in `…` when cut). */
export function fitSegments<S extends { text: string }>(segments: readonly S[], width: number): S[] {
  const out: S[] = [];
  let left = width;
  const total = segments.reduce((sum, s) => sum + textWidth(s.text), 0);
  if (total <= width) return [...segments];
  for (const segment of segments) {
    const w = textWidth(segment.text);
    // Room for the whole piece and the `…` that ends the line.
    if (w < left) {
      out.push(segment);
      left -= w;
      continue;
    }
    // A space more makes `fit` cut, so the line always ends in `…` here.
    out.push({ ...segment, text: fit(`${segment.text} `, left) });
    return out;
  }
  return out;
}
