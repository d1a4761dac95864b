/**
 * How calls of the `mcp` proxy and of direct tools look in Pi's chat.
 * `toolResultRendering: "compact"` (default): a self-rendered row — ✔ or ✘
 * once the call ended, the call's title (its kind first: call, read,
 * prompt, search…), then the first `collapsedResultLines` (default 1) lines
 * of the result and an expand hint; expanded, the whole text, with JSON
 * indented and in Pi's syntax colours (`json-highlight.ts`). While the call
 * runs: its elapsed time and latest progress (`running-rows.ts`).
 * `"boxed"`: Pi's standard boxed row and call line, the result collapsed to
 * `collapsedResultLines` (default 3). Only the display changes: the model
 * receives the full (guarded) result either way.
 */
import { highlightJson, type Segment, viewOfTextPart } from "./json-highlight.js";
import { fit, fitSegments, plainText } from "./render-text.js";
import { type RunningState, runningText } from "./running-rows.js";

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
  details?: unknown;
}

/** What the kind of a call is, once its result says (a proxy call may turn out to read a resource). */
type CallKind = "tool" | "resource" | "prompt";

interface RenderContextLike {
  isError?: boolean;
  /** True until the call's final result is in (also before any result). */
  isPartial?: boolean;
  /** Shared by the call and result renderers of one row: the result's kind, for the title. */
  state?: { kind?: CallKind };
  /** Pi 1.x: the `outputPad` setting, which self-rendered rows apply themselves. */
  outputPad?: number;
  /** Pi 1.x: the configured keys of a keybinding, styled as a hint. */
  keyHint?: (keybinding: string, description: string) => string;
}

/** One drawn row: plain `text`, coloured whole by `color`, or piece by piece by `segments`. */
export interface Row {
  text: string;
  color?: string;
  bold?: boolean;
  segments?: Segment[];
}

/** Plain lines (no colour) so tests and the component share one source of text. */
function lines(text: string): string[] {
  return plainText(text)
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "");
}

/**
 * A component drawing `rows` (plain text, coloured after cutting) within the
 * width, `pad` columns in. Rows given as a function are made at each draw
 * (a running call's elapsed time).
 */
export function lineComponent(
  rows: readonly Row[] | (() => readonly Row[]),
  theme: RenderTheme,
  pad = 0,
): LineComponent {
  return {
    render: (width) => {
      const indent = " ".repeat(Math.max(0, Math.min(pad, width - 1)));
      return (typeof rows === "function" ? rows() : rows).map((row) => {
        const room = width - indent.length;
        const colored = row.segments
          ? fitSegments(row.segments, room)
              .map((s) => (s.color ? theme.fg(s.color, s.text) : s.text))
              .join("")
          : row.color
            ? theme.fg(row.color, fit(row.text, room))
            : fit(row.text, room);
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

/** The word a row names its call by: what the result says it was, else what its arguments ask. */
const KIND_LABEL: Record<CallKind, string> = { tool: "call", resource: "read", prompt: "prompt" };

/** The title of a proxy call: what it does (its kind first, once the result names it), from its parameters. */
export function proxyCallTitle(args: Record<string, unknown> | undefined, kind?: CallKind): string {
  const a = args ?? {};
  const str = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : undefined);
  const server = str("server");
  if (str("tool")) {
    const target = server ? `${server}/${str("tool")}` : (str("tool") as string);
    const rest = argumentSummary(a.args);
    return `mcp ${KIND_LABEL[kind ?? "tool"]} ${target}${rest ? ` ${rest}` : ""}`;
  }
  if (str("search")) return `mcp search "${str("search")}"${server ? ` in ${server}` : ""}`;
  if (str("describe")) return `mcp describe ${str("describe")}`;
  if (str("connect")) return `mcp connect ${str("connect")}`;
  if (server) return `mcp ${server}`;
  const other = argumentSummary(a);
  return other ? `mcp ${other}` : "mcp status";
}

/** The title row: ✔ or ✘ once the call ended (none while it runs or outside Pi), then the title. */
export function titleRow(title: string, context: RenderContextLike | undefined): Row {
  const ended = context?.isPartial === false;
  if (!ended) return { text: title, color: "toolTitle", bold: true };
  const mark = context?.isError ? { text: "✘ ", color: "error" } : { text: "✔ ", color: "success" };
  return {
    text: `${mark.text}${title}`,
    bold: true,
    segments: [mark, { text: title, color: "toolTitle" }],
  };
}

/** The collapsed (or, expanded, full) rows of a result, plain text but for JSON. */
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
    /** The clock a running call's elapsed time is read from. */
    now?: number;
  },
): Row[] {
  const [first, rest] = options.boxed ? ["", ""] : ["  ⎿ ", "    "];
  if (options.isPartial) {
    const running = runningOf(result.details);
    return [{ text: `${rest}… ${runningText(running, options.now ?? Date.now())}`, color: "muted" }];
  }
  const color = options.isError ? "error" : undefined;
  const body = options.expanded && !options.isError ? expandedBody(result) : undefined;
  const all: Row[] = body ?? lines(plainTextOf(result)).map((text) => ({ text }));
  if (all.length === 0) return [{ text: `${first}(no output)`, color: "muted" }];
  const collapsed = options.collapsedLines ?? (options.boxed ? 3 : 1);
  const keep = options.expanded ? all.length : Math.min(3, Math.max(1, collapsed));
  const rows = all.slice(0, keep).map((row, i) => indented(row, i === 0 ? first : rest, color));
  const hidden = all.length - keep;
  if (hidden > 0) {
    rows.push({
      text: `${rest}… ${hidden} more line${hidden === 1 ? "" : "s"} (${options.expandHint ?? "ctrl+o to expand"})`,
      color: "muted",
    });
  }
  return rows;
}

function plainTextOf(result: ToolResultLike): string {
  return (result.content ?? [])
    .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`))
    .join("\n");
}

function indented(row: Row, prefix: string, color: string | undefined): Row {
  if (row.segments) return { text: prefix + row.text, segments: [{ text: prefix }, ...row.segments] };
  return { text: prefix + row.text, color: row.color ?? color };
}

/**
 * An expanded result: each text part plain or, when it is JSON (text, or a
 * JSON resource), indented and highlighted; a tool's structured content
 * follows when no part already showed JSON. `undefined` when nothing is JSON.
 */
function expandedBody(result: ToolResultLike): Row[] | undefined {
  const rows: Row[] = [];
  let json = false;
  for (const part of result.content ?? []) {
    if (part.type !== "text") {
      rows.push({ text: `[${part.type}]` });
      continue;
    }
    const view = viewOfTextPart(part.text ?? "");
    const highlighted = view.kind === "json" ? highlightJson(view.value) : undefined;
    if (view.kind === "json" && highlighted) {
      json = true;
      if (view.header) rows.push({ text: plainText(view.header), color: "muted" });
      rows.push(...highlighted.map(segmentRow));
    } else {
      rows.push(...lines(part.text ?? "").map((text) => ({ text })));
    }
  }
  const structured = json ? undefined : structuredContentOf(result.details);
  const highlighted = structured === undefined ? undefined : highlightJson(structured);
  if (highlighted) {
    json = true;
    rows.push({ text: "structured content:", color: "muted" }, ...highlighted.map(segmentRow));
  }
  return json ? rows : undefined;
}

function segmentRow(segments: Segment[]): Row {
  const safe = segments.map((s) => ({ ...s, text: plainText(s.text) }));
  return { text: safe.map((s) => s.text).join(""), segments: safe };
}

/** A tool's structured content from a result's details (direct tools, or the proxy's raw MCP result). */
function structuredContentOf(details: unknown): unknown {
  if (typeof details !== "object" || details === null) return undefined;
  const d = details as { structuredContent?: unknown; mcpResult?: { structuredContent?: unknown } };
  return d.structuredContent ?? d.mcpResult?.structuredContent;
}

function runningOf(details: unknown): RunningState | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const running = (details as { running?: RunningState }).running;
  return running && typeof running.startedAt === "number" ? running : undefined;
}

function kindOf(details: unknown): CallKind | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const kind = (details as { kind?: unknown }).kind;
  return kind === "tool" || kind === "resource" || kind === "prompt" ? kind : undefined;
}

/**
 * The renderer fields for a tool definition: for `"boxed"` only the
 * collapsed result inside Pi's own row, else a self-rendered compact row
 * titled by `title(args, kind)`.
 */
export function resultRenderers(
  settings: RenderSettings,
  title: (args: Record<string, unknown> | undefined, kind?: CallKind) => string,
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
          ) =>
            // Drawn at each frame: the result renderer, which runs after this one, may name the kind.
            lineComponent(
              () => [titleRow(title(args, context?.state?.kind), context)],
              theme,
              padOf(context),
            ),
        }),
    renderResult: (
      result: ToolResultLike,
      options: { expanded: boolean; isPartial: boolean },
      theme: RenderTheme,
      context: RenderContextLike | undefined,
    ) => {
      const kind = kindOf(result.details);
      if (kind && context?.state) context.state.kind = kind;
      const rows = () =>
        resultRows(result, {
          ...options,
          boxed,
          isError: context?.isError,
          collapsedLines: settings.collapsedResultLines,
          expandHint: plainText(context?.keyHint?.("app.tools.expand", "to expand") ?? "ctrl+o to expand"),
        });
      // Inside Pi's box the box pads; a self-rendered row pads itself (Pi 0.7x has no setting: 1).
      return lineComponent(options.isPartial ? rows : rows(), theme, boxed ? 0 : padOf(context));
    },
  };
}

function padOf(context: RenderContextLike | undefined): number {
  return typeof context?.outputPad === "number" ? context.outputPad : 1;
}
