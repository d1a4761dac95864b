/**
 * The `/mcp-adapter` panel's state, Pi-free and pure: the servers it shows,
 * the rows the cursor moves over, the edits waiting for a save, and what a
 * save writes. Every function returns a new state; the Pi component
 * (`panel.ts`) only feeds it keys and draws it (`panel-view.ts`).
 *
 * Edits are per server and limited to the two fields a user toggles here:
 * `disabled` and `directTools`. A save merges them into the adapter's own
 * file, never anything else.
 */

/** A server's `directTools` as the panel writes it: all, none, or the listed original tool names. */
export type DirectToolsValue = boolean | readonly string[];

export interface PanelTool {
  /** The tool's original MCP name (what `directTools` lists). */
  name: string;
  description?: string;
  /** Tool pinning: `new`, or what changed since the user accepted the tool. */
  change?: string;
}

export interface PanelServer {
  name: string;
  /** The connection state (`connected`, `failed`, `needs-auth`, `disabled`, …). */
  state: string;
  toolCount: number;
  /** Why the last connect failed, for `failed` and `needs-auth`. */
  error?: string;
  /** When a failed server may be started again (ms since epoch); absent when the next use tries it. */
  retryAt?: number;
  /** `directTools` as configured now (the server's own value, else the global default). */
  directTools: DirectToolsValue;
  disabled: boolean;
  /** The server's tools once listed; `undefined` while not listed yet. */
  tools?: readonly PanelTool[];
  /** Why listing the tools failed, when it did. */
  listError?: string;
  /** How many of its tools changed or are new since the user accepted them (tool pinning). */
  changedTools?: number;
  /** Estimated tokens it adds to every request now, and with all its tools direct (`null`: tools unknown). */
  cost?: { perRequest: number; allDirect: number | null };
  /** Sharing of a stdio server's process with other sessions: `shared (2 sessions)` or `not shared: …`. */
  shared?: string;
  /** The MCP skills it offers (SEP-2640), by the names `/skill:` takes. */
  skills?: readonly string[];
  /** Skills its listing held that failed the checks, each as "skill X from server S left out: why". */
  refusedSkills?: readonly string[];
  /** MCP tasks running on it now (the session's calls', and tasks followed again after a restart). */
  tasks?: number;
}

export interface ServerEdit {
  disabled?: boolean;
  directTools?: DirectToolsValue;
}

/** Where a save goes: the project's `.pi/mcp-adapter.json`, or the agent dir's `mcp-adapter.json`. */
export type SaveScope = "project" | "user";

export interface PanelState {
  servers: readonly PanelServer[];
  /** Names of the servers shown with their tools. */
  expanded: readonly string[];
  /** Index into `panelRows(state)`. */
  cursor: number;
  edits: Readonly<Record<string, ServerEdit>>;
  scope: SaveScope;
  /** One line shown under the rows (the last action's outcome). */
  message?: string;
}

export type PanelRow =
  | { kind: "server"; server: string }
  | { kind: "tool"; server: string; tool: string }
  /** A placeholder under an expanded server whose tools are not listed (yet, or at all). */
  | { kind: "note"; server: string; text: string };

export function createPanelState(servers: readonly PanelServer[], scope: SaveScope): PanelState {
  return { servers, expanded: [], cursor: 0, edits: {}, scope };
}

/** The rows in display order: each server, followed by its tools when expanded. */
export function panelRows(state: PanelState): PanelRow[] {
  const rows: PanelRow[] = [];
  for (const server of state.servers) {
    rows.push({ kind: "server", server: server.name });
    if (!state.expanded.includes(server.name)) continue;
    if (server.tools === undefined) {
      rows.push({ kind: "note", server: server.name, text: server.listError ?? "listing tools…" });
    } else if (server.tools.length === 0) {
      rows.push({ kind: "note", server: server.name, text: "no tools" });
    } else {
      for (const tool of server.tools) rows.push({ kind: "tool", server: server.name, tool: tool.name });
    }
    for (const skill of server.skills ?? []) {
      rows.push({ kind: "note", server: server.name, text: `skill ${skill}  (/skill:${skill})` });
    }
    for (const text of server.refusedSkills ?? []) rows.push({ kind: "note", server: server.name, text });
  }
  return rows;
}

export function currentRow(state: PanelState): PanelRow | undefined {
  return panelRows(state)[state.cursor];
}

export function moveCursor(state: PanelState, delta: number): PanelState {
  const count = panelRows(state).length;
  if (count === 0) return state;
  const cursor = Math.min(count - 1, Math.max(0, state.cursor + delta));
  return { ...state, cursor, message: undefined };
}

/** Expands or collapses the server under the cursor (a tool row collapses its server). */
export function toggleExpanded(state: PanelState): PanelState {
  const row = currentRow(state);
  if (!row) return state;
  const open = state.expanded.includes(row.server);
  const expanded = open ? state.expanded.filter((s) => s !== row.server) : [...state.expanded, row.server];
  const next = { ...state, expanded, message: undefined };
  // Collapsing from a tool row puts the cursor back on its server.
  if (open && row.kind !== "server") {
    return {
      ...next,
      cursor: panelRows(next).findIndex((r) => r.kind === "server" && r.server === row.server),
    };
  }
  return next;
}

export function serverOf(state: PanelState, name: string): PanelServer | undefined {
  return state.servers.find((s) => s.name === name);
}

/** Whether the server is disabled once pending edits apply. */
export function isDisabled(state: PanelState, name: string): boolean {
  return state.edits[name]?.disabled ?? serverOf(state, name)?.disabled ?? false;
}

/** The server's `directTools` once pending edits apply. */
export function directToolsOf(state: PanelState, name: string): DirectToolsValue {
  return state.edits[name]?.directTools ?? serverOf(state, name)?.directTools ?? false;
}

/** Whether a tool is exposed directly (rather than through the proxy) once pending edits apply. */
export function isDirect(state: PanelState, server: string, tool: string): boolean {
  const value = directToolsOf(state, server);
  return value === true || (Array.isArray(value) && value.includes(tool));
}

/** `all`, `some` or `none` of the server's tools direct, once pending edits apply. */
export function directSummary(state: PanelState, server: string): "all" | "some" | "none" {
  const value = directToolsOf(state, server);
  if (value === true) return "all";
  return Array.isArray(value) && value.length > 0 ? "some" : "none";
}

/**
 * Switches the row under the cursor between direct and proxy: a server row
 * makes all its tools direct (or none, when all are), a tool row flips that
 * one tool (a server whose tools are not listed cannot list its tools yet).
 */
export function toggleDirect(state: PanelState): PanelState {
  const row = currentRow(state);
  if (!row || row.kind === "note") return state;
  if (row.kind === "server") {
    const next = directSummary(state, row.server) !== "all";
    return withEdit(
      state,
      row.server,
      { directTools: next },
      `${row.server}: ${next ? "all tools direct" : "proxy only"} (unsaved)`,
    );
  }
  const tools = serverOf(state, row.server)?.tools ?? [];
  const direct = new Set(tools.filter((t) => isDirect(state, row.server, t.name)).map((t) => t.name));
  const becomes = !direct.has(row.tool);
  if (becomes) direct.add(row.tool);
  else direct.delete(row.tool);
  // Written the way a person would: every tool is `true`, none is `false`, else the names in listing order.
  const value: DirectToolsValue =
    direct.size === 0
      ? false
      : direct.size === tools.length
        ? true
        : tools.map((t) => t.name).filter((n) => direct.has(n));
  return withEdit(
    state,
    row.server,
    { directTools: value },
    `${row.tool}: ${becomes ? "direct" : "proxy"} (unsaved)`,
  );
}

/** Disables or enables the server under the cursor (pending until saved). */
export function toggleDisabled(state: PanelState): PanelState {
  const row = currentRow(state);
  if (!row) return state;
  const disabled = !isDisabled(state, row.server);
  return withEdit(
    state,
    row.server,
    { disabled },
    `${row.server}: ${disabled ? "disabled" : "enabled"} (unsaved)`,
  );
}

export function toggleScope(state: PanelState): PanelState {
  const scope: SaveScope = state.scope === "project" ? "user" : "project";
  return { ...state, scope, message: `Saving to the ${scope === "project" ? "project" : "user"} file` };
}

/** Records an edit; an edit that brings a field back to its configured value is dropped. */
function withEdit(state: PanelState, name: string, change: ServerEdit, message: string): PanelState {
  const server = serverOf(state, name);
  const edit: ServerEdit = { ...state.edits[name], ...change };
  if (server && edit.disabled === server.disabled) delete edit.disabled;
  if (server && edit.directTools !== undefined && sameDirect(edit.directTools, server.directTools)) {
    delete edit.directTools;
  }
  const edits = { ...state.edits };
  if (Object.keys(edit).length) edits[name] = edit;
  else delete edits[name];
  return { ...state, edits, message };
}

function sameDirect(a: DirectToolsValue, b: DirectToolsValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((n, i) => n === b[i]);
  return a === b;
}

export function pendingCount(state: PanelState): number {
  return Object.keys(state.edits).length;
}

/** Puts fresh server facts (state, counts, tools) into the panel, keeping cursor, expansion and edits. */
export function updateServers(state: PanelState, servers: readonly PanelServer[]): PanelState {
  const next = { ...state, servers };
  const count = panelRows(next).length;
  return { ...next, cursor: Math.max(0, Math.min(state.cursor, count - 1)) };
}

/** After a save: the edits become the configured values. */
export function editsSaved(state: PanelState, file: string): PanelState {
  const servers = state.servers.map((s) => {
    const edit = state.edits[s.name];
    return edit
      ? { ...s, disabled: edit.disabled ?? s.disabled, directTools: edit.directTools ?? s.directTools }
      : s;
  });
  return { ...state, servers, edits: {}, message: `Saved to ${file}; applied to this session.` };
}

export function withMessage(state: PanelState, message: string): PanelState {
  return { ...state, message };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What a save writes: `document` (the adapter file's current JSON, `{}` when
 * absent) with each edited server's `disabled` / `directTools` set under
 * `mcpServers`, every other key left as it was. A re-enabled server also
 * leaves a `disabledMcpServers` list. Throws when `mcpServers` is not an object.
 */
export function applyEdits(document: Json, edits: Readonly<Record<string, ServerEdit>>): Json {
  const servers = document.mcpServers === undefined ? {} : document.mcpServers;
  if (!isObject(servers)) throw new Error("mcpServers is not an object");
  const nextServers: Json = { ...servers };
  let disabledList = Array.isArray(document.disabledMcpServers)
    ? [...document.disabledMcpServers]
    : undefined;
  for (const [name, edit] of Object.entries(edits)) {
    if (!name.trim() || name === "__proto__") throw new Error(`not a usable server name: "${name}"`);
    const current = nextServers[name];
    const entry: Json = { ...(isObject(current) ? current : {}) };
    if (edit.disabled !== undefined) {
      entry.disabled = edit.disabled;
      if (!edit.disabled && disabledList) disabledList = disabledList.filter((n) => n !== name);
    }
    if (edit.directTools !== undefined) {
      entry.directTools = Array.isArray(edit.directTools) ? [...edit.directTools] : edit.directTools;
    }
    nextServers[name] = entry;
  }
  const next: Json = { ...document, mcpServers: nextServers };
  if (disabledList) next.disabledMcpServers = disabledList;
  return next;
}
