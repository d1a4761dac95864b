/**
 * How calls of the `mcp` proxy and of direct tools look in Pi's chat.
 * `toolResultRendering: "compact"` (default): a self-rendered row — the
 * call's title, then the first `collapsedResultLines` (default 1) lines of
 * the result and an expand hint; expanded, the whole text. `"boxed"`: Pi's
 * standard boxed row and call line, the result collapsed to
 * `collapsedResultLines` (default 3). Only the display changes: the model
 * receives the full (guarded) result either way.
 */
import { fit, plainText } from "./render-text.js";

export interface RenderSettings {
  toolResultRendering?: "compact" | "boxed";
  collapsedResultLines?: number;
}

/** The part of Pi's theme the renderers use. */
export interface RenderTheme {
  fg(color: string, text: string): string;
  bold(text: string): string;
}

/** A component as Pi's TUI takes it. */
export interface LineComponent {
  render(width: number): string[];
  invalidate(): void;
}

interface ToolResultLike {
  content?: readonly { type: string; text?: string }[];
}

interface RenderContextLike {
  isError?: boolean;
  /** Pi 1.x: the `outputPad` setting, which self-rendered rows apply themselves. */
  outputPad?: number;
  /** Pi 1.x: the configured keys of a keybinding, styled as a hint. */
  keyHint?: (keybinding: string, description: string) => string;
}

/** Plain lines (no colour) so tests and the component share one source of text. */
function lines(text: string): string[] {
  return plainText(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "");
}

/** A component drawing `rows` (plain text, coloured after cutting) within the width, `pad` columns in. */
export function lineComponent(
  rows: readonly { text: string; color?: string; bold?: boolean }[],
  theme: RenderTheme,
  pad = 0,
): LineComponent {
  return {
    render: (width) => {
      const indent = " ".repeat(Math.max(0, Math.min(pad, width - 1)));
      return rows.map((row) => {
        const cut = fit(row.text, width - indent.length);
        const colored = row.color ? theme.fg(row.color, cut) : cut;
        return indent + (row.bold ? theme.bold(colored) : colored);
      });
    },
    invalidate: () => {},
  };
}

/** One-line summary of call arguments: `key=value` pairs, strings quoted, long values cut. */
export function argumentSummary(args: unknown, max = 80): string {
  if (typeof args !== "object" || args === null) return "";
  const parts = Object.entries(args as Record<string, unknown>).map(([key, value]) => {
    const shown = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value ?? null);
    return `${key}=${shown && shown.length > 40 ? `${shown.slice(0, 39)}…` : shown}`;
  });
  const joined = parts.join(" ");
  return joined.length > max ? `${joined.slice(0, max - 1)}…` : joined;
}

/** The title of a proxy call: what it does, from its parameters. */
export function proxyCallTitle(args: Record<string, unknown> | undefined): string {
  const a = args ?? {};
  const str = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : undefined);
  const server = str("server");
  if (str("tool")) {
    const target = server ? `${server}/${str("tool")}` : (str("tool") as string);
    const rest = argumentSummary(a.args);
    return `mcp call ${target}${rest ? ` ${rest}` : ""}`;
  }
  if (str("search")) return `mcp search "${str("search")}"${server ? ` in ${server}` : ""}`;
  if (str("describe")) return `mcp describe ${str("describe")}`;
  if (str("connect")) return `mcp connect ${str("connect")}`;
  if (server) return `mcp ${server}`;
  const other = argumentSummary(a);
  return other ? `mcp ${other}` : "mcp status";
}

/** The collapsed (or, expanded, full) rows of a result, plain text. */
export function resultRows(
  result: ToolResultLike,
  options: {
    expanded: boolean;
    isPartial?: boolean;
    isError?: boolean;
    collapsedLines?: number;
    expandHint?: string;
    /** Pi's box indents already: no tree mark or indent of our own. */
    boxed?: boolean;
  },
): { text: string; color?: string }[] {
  const [first, rest] = options.boxed ? ["", ""] : ["  ⎿ ", "    "];
  if (options.isPartial) return [{ text: `${rest}… running`, color: "muted" }];
  const text = (result.content ?? [])
    .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`))
    .join("\n");
  const all = lines(text);
  const color = options.isError ? "error" : undefined;
  if (all.length === 0) return [{ text: `${first}(no output)`, color: "muted" }];
  const collapsed = options.collapsedLines ?? (options.boxed ? 3 : 1);
  const keep = options.expanded ? all.length : Math.min(3, Math.max(1, collapsed));
  const rows = all.slice(0, keep).map((line, i) => ({ text: `${i === 0 ? first : rest}${line}`, color }));
  const hidden = all.length - keep;
  if (hidden > 0) {
    rows.push({
      text: `${rest}… ${hidden} more line${hidden === 1 ? "" : "s"} (${options.expandHint ?? "ctrl+o to expand"})`,
      color: "muted",
    });
  }
  return rows;
}

/**
 * The renderer fields for a tool definition: for `"boxed"` only the
 * collapsed result inside Pi's own row, else a self-rendered compact row
 * titled by `title(args)`.
 */
export function resultRenderers(
  settings: RenderSettings,
  title: (args: Record<string, unknown> | undefined) => string,
): Record<string, unknown> {
  const boxed = settings.toolResultRendering === "boxed";
  return {
    ...(boxed
      ? {}
      : {
          renderShell: "self",
          renderCall: (
            args: Record<string, unknown> | undefined,
            theme: RenderTheme,
            context: RenderContextLike | undefined,
          ) => lineComponent([{ text: title(args), color: "toolTitle", bold: true }], theme, padOf(context)),
        }),
    renderResult: (
      result: ToolResultLike,
      options: { expanded: boolean; isPartial: boolean },
      theme: RenderTheme,
      context: RenderContextLike | undefined,
    ) =>
      lineComponent(
        resultRows(result, {
          ...options,
          boxed,
          isError: context?.isError,
          collapsedLines: settings.collapsedResultLines,
          expandHint: plainText(context?.keyHint?.("app.tools.expand", "to expand") ?? "ctrl+o to expand"),
        }),
        theme,
        // Inside Pi's box the box pads; a self-rendered row pads itself (Pi 0.7x has no setting: 1).
        boxed ? 0 : padOf(context),
      ),
  };
}

function padOf(context: RenderContextLike | undefined): number {
  return typeof context?.outputPad === "number" ? context.outputPad : 1;
}
