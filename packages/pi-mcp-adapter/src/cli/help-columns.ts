/**
 * The CLI's two-column help rows (a usage, then what it does), laid out so a
 * usage never runs into its description whatever the lengths: descriptions
 * start two spaces after the longest usage that fits `maxColumn`; a longer
 * usage gets a line of its own, its description on the next line at that
 * column. A new table of rows goes through here too.
 */

/** Where descriptions start at most (counted from the line's start, indent included). */
const MAX_COLUMN = 34;
const INDENT = "  ";
const GAP = 2;

export function helpRows(rows: readonly (readonly [string, string])[], maxColumn = MAX_COLUMN): string[] {
  const fits = rows.map(([usage]) => INDENT.length + usage.length + GAP).filter((w) => w <= maxColumn);
  const column = Math.max(INDENT.length + GAP, ...fits);
  return rows.flatMap(([usage, text]) => {
    const head = `${INDENT}${usage}`;
    if (head.length + GAP <= column) return [`${head.padEnd(column)}${text}`];
    return [head, `${" ".repeat(column)}${text}`];
  });
}
