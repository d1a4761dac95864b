/**
 * The bench's one results table, as Markdown: a row per figure, a cell per
 * column, the ratio of two named columns, and the design's measured target
 * for one column (with whether its figure meets it) where the design sets
 * one. Every section that prints a comparison builds `ResultRow`s and hands
 * them here, so all tables read alike.
 */

export interface ResultRow<C extends string> {
  what: string;
  values: Partial<Record<C, number>>;
  digits: number;
  /** Target text and check, for the target column's figure. */
  target?: [string, (value: number) => boolean];
}

export interface TableLayout<C extends string> {
  /** The columns in order, with their headings. */
  columns: readonly { id: C; label: string }[];
  /** The ratio column: `of` ÷ `to`, under `label`. */
  ratio: { of: C; to: C; label: string };
  /** The column the targets judge, and the target column's heading. */
  target: { column: C; label: string };
}

export const formatFigure = (v: number | undefined, digits: number): string =>
  v === undefined || Number.isNaN(v)
    ? "—"
    : v.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function formatResultsTable<C extends string>(layout: TableLayout<C>, rows: ResultRow<C>[]): string {
  const { columns, ratio, target } = layout;
  const lines = [
    `| | ${columns.map((c) => c.label).join(" | ")} | ${ratio.label} | ${target.label} |`,
    `|---|${columns.map(() => "---:|").join("")}---:|---|`,
  ];
  for (const row of rows) {
    const of = row.values[ratio.of];
    const to = row.values[ratio.to];
    const quotient = of !== undefined && to !== undefined && to !== 0 ? of / to : Number.NaN;
    const shown = Number.isFinite(quotient) ? `${quotient.toFixed(2)}×` : "—";
    const judged = row.values[target.column];
    const check =
      row.target && judged !== undefined
        ? `${row.target[0]}: ${row.target[1](judged) ? "met" : "**not met**"}`
        : "";
    const cells = columns.map((c) => formatFigure(row.values[c.id], row.digits));
    lines.push(`| ${row.what} | ${cells.join(" | ")} | ${shown} | ${check} |`);
  }
  return lines.join("\n");
}
