/**
 * Draws the panel's state as lines of at most `width` cells. Text is cut
 * to width before it is coloured, so no escape sequence is ever split.
 */

import { fit, plainText } from "../render/render-text.js";
import {
  currentRow,
  directSummary,
  isDirect,
  isDisabled,
  type PanelRow,
  type PanelServer,
  type PanelState,
  panelRows,
  pendingCount,
  serverOf,
} from "./panel-model.js";

/** The part of Pi's theme the panel uses (also what tests pass: identity colours). */
export interface PanelTheme {
  fg(color: string, text: string): string;
  bold(text: string): string;
}

export const PLAIN_THEME: PanelTheme = { fg: (_color, text) => text, bold: (text) => text };

const STATE_COLOR: Record<string, string> = {
  connected: "success",
  failed: "error",
  "needs-auth": "warning",
  disabled: "dim",
  connecting: "accent",
};

export interface PanelViewOptions {
  /** The save key as shown in the help line. */
  saveKey?: string;
  /** Where a save goes, shown in the header. */
  saveFile?: string;
  /** Whether `s` opens setup (the host wired `/mcp-adapter setup`). */
  setup?: boolean;
  /** Rows of the list at most (the rest scrolls). */
  maxRows?: number;
  /** The session's resource watches, one line each (`/mcp-adapter watch`); none: no section. */
  watches?: readonly string[];
}

export function renderPanel(
  state: PanelState,
  width: number,
  theme: PanelTheme = PLAIN_THEME,
  options: PanelViewOptions = {},
): string[] {
  // One column in, like Pi's own dialogs.
  const inner = Math.max(1, width - 1);
  const line = (text: string, color?: string) => {
    const cut = fit(plainText(text).replace(/\n/g, " "), inner);
    return color ? theme.fg(color, cut) : cut;
  };
  const pending = pendingCount(state);
  const lines = [
    theme.bold(
      line(`MCP servers${pending ? ` — ${pending} unsaved change${pending === 1 ? "" : "s"}` : ""}`),
    ),
  ];
  if (options.saveFile) lines.push(line(`Saves to ${options.saveFile} (${state.scope})`, "dim"));
  lines.push("");
  const rows = panelRows(state);
  if (rows.length === 0) lines.push(line("  No MCP servers configured.", "muted"));
  const max = options.maxRows ?? 30;
  const start = Math.max(0, Math.min(state.cursor - Math.floor(max / 2), rows.length - max));
  for (const [offset, row] of rows.slice(start, start + max).entries()) {
    const selected = start + offset === state.cursor;
    const text = rowText(state, row);
    const prefix = selected ? "› " : "  ";
    const colored = line(prefix + text, selected ? "accent" : rowColor(state, row));
    lines.push(selected ? theme.bold(colored) : colored);
  }
  if (options.watches?.length) {
    lines.push("", line(`Watched resources (${options.watches.length})`, "muted"));
    for (const watch of options.watches) lines.push(line(`  ${watch}`, "muted"));
  }
  const row = currentRow(state);
  const failed = row?.kind === "server" ? serverOf(state, row.server) : undefined;
  if (failed?.error) {
    const wait = failed.retryAt === undefined ? 0 : Math.ceil((failed.retryAt - Date.now()) / 1000);
    const retry = wait > 0 ? ` (next try in ${wait}s; reconnect tries now)` : "";
    lines.push("", line(`last error: ${oneLine(failed.error)}${retry}`, "error"));
  }
  if (state.message) lines.push("", line(state.message, "muted"));
  const save = options.saveKey ?? "ctrl+s";
  lines.push(
    "",
    line(
      `↑↓ move · enter expand/toggle · space direct/proxy · e enable/disable · r reconnect · ctrl+a login · tab scope · ${options.setup ? "s setup · " : ""}${save} save · esc close`,
      "dim",
    ),
  );
  return lines.map((l) => (l && width > 1 ? ` ${l}` : l));
}

function rowText(state: PanelState, row: PanelRow): string {
  if (row.kind === "note") return `    ${row.text}`;
  if (row.kind === "tool") {
    const mode = isDirect(state, row.server, row.tool) ? "direct" : "proxy";
    const edited = state.edits[row.server]?.directTools !== undefined ? "*" : " ";
    const change = serverOf(state, row.server)?.tools?.find((t) => t.name === row.tool)?.change;
    const changed = change ? `  ${change === "new" ? "new" : `changed: ${change}`}` : "";
    return `    ${edited}[${mode === "direct" ? "x" : " "}] ${row.tool}  ${mode}${changed}`;
  }
  const server = serverOf(state, row.server);
  if (!server) return row.server;
  const open = state.expanded.includes(row.server) ? "▾" : "▸";
  const disabled = isDisabled(state, row.server);
  const shownState = disabled ? "disabled" : server.state === "disabled" ? "enabled" : server.state;
  const tools = `${server.toolCount} tool${server.toolCount === 1 ? "" : "s"}`;
  const direct = directSummary(state, row.server);
  const mode = direct === "all" ? "direct" : direct === "some" ? "some direct" : "proxy";
  const edited = state.edits[row.server] ? " *" : "";
  const changed = server.changedTools ? `  ${server.changedTools} changed (trust-tools)` : "";
  const shared = server.shared && !disabled ? `  ${server.shared}` : "";
  const count = server.skills?.length ?? 0;
  const skills = count ? `  ${count} skill${count === 1 ? "" : "s"}` : "";
  const tasks = server.tasks ? `  ${server.tasks} task${server.tasks === 1 ? "" : "s"} running` : "";
  return `${open} ${row.server}  ${shownState}${shared}  ${tools}${skills}${tasks}  ${mode}${costText(server)}${changed}${edited}`;
}

/** `  ~12 tok/request (all direct ~1,900)`: what the server costs in every model request. */
function costText(server: PanelServer): string {
  if (!server.cost) return "";
  const { perRequest, allDirect } = server.cost;
  const all =
    allDirect === null || allDirect === perRequest ? "" : ` (all direct ~${allDirect.toLocaleString("en")})`;
  return `  ~${perRequest.toLocaleString("en")} tok/request${all}`;
}

function rowColor(state: PanelState, row: PanelRow): string | undefined {
  if (row.kind !== "server") return row.kind === "note" ? "muted" : undefined;
  if (isDisabled(state, row.server)) return "dim";
  return STATE_COLOR[serverOf(state, row.server)?.state ?? ""];
}

function oneLine(text: string): string {
  return plainText(text).replace(/\s+/g, " ").trim();
}
