/**
 * The `/mcp-adapter` panel in Pi's TUI (`ctx.ui.custom`): servers with their
 * state, tool counts, running MCP tasks and last error; Enter expands a server to its tools;
 * direct/proxy and enable/disable are edits a save (ctrl+s, or the
 * `mcp.panel.save` keybinding) writes to the adapter's own file and applies
 * live; reconnect runs at once; ctrl+a (or Enter on a needs-auth server)
 * closes the panel and runs the `/mcp-auth` login. The state lives in
 * `panel-model.ts`, the drawing in `panel-view.ts`.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { describeError } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { liveTokenCosts, type ServerTokenCost, toolChangeSummary } from "@pi-mcp-adapter/runtime/startup";
import { watchLine } from "../render/watch-list.js";
import { type PanelAction, type PanelKeybindings, panelAction, saveKeys } from "./panel-keys.js";
import {
  createPanelState,
  currentRow,
  editsSaved,
  moveCursor,
  type PanelServer,
  type PanelState,
  pendingCount,
  serverOf,
  toggleDirect,
  toggleDisabled,
  toggleExpanded,
  toggleScope,
  updateServers,
  withMessage,
} from "./panel-model.js";
import { panelSaveFile, savePanelEdits } from "./panel-save.js";
import { panelServers, skillsByServer } from "./panel-servers.js";

export { panelServers } from "./panel-servers.js";

import { type PanelTheme, renderPanel } from "./panel-view.js";

export interface PanelOptions {
  runtime: AdapterRuntime;
  /** The host's project trust answer (`false`: saves go to the user file), and the agent dir the user file is in. */
  trusted?: boolean;
  agentDir?: string;
  /** Runs the `/mcp-auth` login for a server (after the panel has closed). */
  login(server: string, ctx: ExtensionContext): Promise<void>;
  /** The hook for `/mcp-adapter setup`: when given, `s` closes the panel and runs it
   * (the panel itself never adopts host configs). */
  setup?: (ctx: ExtensionContext) => Promise<void>;
}

/** How the panel ended: closed, closed to log in to a server, or closed to apply a save. */
type PanelResult =
  | { login?: string; setup?: true; saved?: { file: string; state: PanelState; servers: string[] } }
  | undefined;

/**
 * Shows the panel until it closes. Returns false when the host drew nothing (RPC mode's `custom()`
 * never calls the factory), so the caller can fall back to the text status.
 *
 * A save writes the file with the panel open, then closes it to apply the change (reloading may ask
 * to approve a project server, and Pi 0.73 does not bring a custom component back after a dialog)
 * and opens it again, where it was, with the outcome.
 */
export async function openPanel(ctx: ExtensionContext, options: PanelOptions): Promise<boolean> {
  let initial: PanelState | undefined;
  for (;;) {
    let drawn = false;
    let pending = 0;
    const result = (await ctx.ui.custom<PanelResult>((tui, theme, keybindings, done) => {
      drawn = true;
      const panel = new PanelController(
        options,
        ctx.cwd,
        keybindings as unknown as PanelKeybindings,
        done,
        () => tui.requestRender(),
        initial,
      );
      return {
        render: (width: number) => {
          pending = pendingCount(panel.state);
          return renderPanel(panel.state, width, theme as unknown as PanelTheme, panel.viewOptions());
        },
        invalidate: () => {},
        handleInput: (data: string) => panel.handle(data),
        dispose: () => panel.dispose(),
      };
    })) as PanelResult;
    if (!drawn) return false;
    if (result?.saved) {
      initial = await applySaved(options.runtime, result.saved);
      continue;
    }
    if (pending > 0 && !result?.login && !result?.setup) {
      ctx.ui.notify(
        `MCP panel closed; ${pending} unsaved change${pending === 1 ? "" : "s"} discarded.`,
        "info",
      );
    }
    if (result?.login) await options.login(result.login, ctx);
    if (result?.setup) await options.setup?.(ctx);
    return true;
  }
}

/**
 * Applies a saved file to the session: reload (servers that changed
 * reconnect), then list the changed servers again so their direct tools
 * are registered before the panel says the change is applied.
 */
async function applySaved(
  runtime: AdapterRuntime,
  { file, state, servers }: { file: string; state: PanelState; servers: string[] },
): Promise<PanelState> {
  try {
    await runtime.reload();
    const listed = runtime.listings.summaries();
    const enabled = listed.filter((s) => servers.includes(s.name) && s.state !== "disabled");
    await Promise.all(enabled.map((s) => runtime.catalog.view(s.name).catch(() => undefined)));
    const fresh = updateServers(state, panelServers(runtime, state.servers));
    return withMessage(fresh, `Saved to ${file}; applied to this session.`);
  } catch (error) {
    return withMessage(state, `Saved to ${file}, but not applied to this session: ${describeError(error)}`);
  }
}

class PanelController {
  state: PanelState;
  private readonly save: string[];
  private readonly stops: (() => void)[] = [];
  private closed = false;
  /** Token cost per server, recomputed when a listing changes (tools from memory or cache, never connecting). */
  private costs = new Map<string, ServerTokenCost>();
  /** MCP skill names per server, from the listings (memory or cache, never connecting). */
  private skills = new Map<string, string[]>();

  constructor(
    private readonly options: PanelOptions,
    private readonly cwd: string,
    private readonly keybindings: PanelKeybindings | undefined,
    private readonly done: (result: PanelResult) => void,
    private readonly redraw: () => void,
    initial?: PanelState,
  ) {
    const runtime = options.runtime;
    this.state =
      initial ?? createPanelState(panelServers(runtime), options.trusted === false ? "user" : "project");
    this.save = saveKeys(keybindings);
    // Every status or listing change shows at once; an open server's tool list follows its listing.
    const refresh = () =>
      this.set(updateServers(this.state, panelServers(runtime, this.state.servers, this.costs, this.skills)));
    const recost = () =>
      void liveTokenCosts(runtime).then(
        (costs) => {
          this.costs = new Map(costs.map((c) => [c.server, c]));
          refresh();
        },
        () => {},
      );
    const reskill = () =>
      void skillsByServer(runtime).then((skills) => {
        this.skills = skills;
        refresh();
      });
    const relist = (server: string) => {
      refresh();
      recost();
      reskill();
      const shown = serverOf(this.state, server);
      if (this.state.expanded.includes(server) && shown && !shown.disabled) this.listTools(server);
    };
    // The watch list below the servers is read at each draw: an update only needs one.
    this.stops.push(
      runtime.servers.onStatus(refresh),
      runtime.listings.onChange(relist),
      runtime.watches.onUpdate(() => this.redraw()),
    );
    recost();
    reskill();
  }

  viewOptions() {
    return {
      saveKey: this.save.join("/"),
      saveFile: panelSaveFile(this.state.scope, this.cwd, this.options.agentDir),
      setup: this.options.setup !== undefined,
      watches: this.options.runtime.watches.list().map(watchLine),
    };
  }

  dispose(): void {
    this.closed = true;
    for (const stop of this.stops.splice(0)) stop();
  }

  handle(data: string): void {
    const action = panelAction(data, this.keybindings, this.save);
    if (action) this.run(action);
  }

  private set(state: PanelState): void {
    if (this.closed) return;
    this.state = state;
    this.redraw();
  }

  private close(result: PanelResult): void {
    this.dispose();
    this.done(result);
  }

  private run(action: PanelAction): void {
    const row = currentRow(this.state);
    if (action === "close") this.close(undefined);
    else if (action === "reconnect" && row) void this.reconnect(row.server);
    else if (action === "save") void this.saveEdits();
    else if (action === "auth" && row) this.close({ login: row.server });
    else if (action === "setup" && this.options.setup) this.close({ setup: true });
    else if (
      action === "confirm" &&
      row?.kind === "server" &&
      serverOf(this.state, row.server)?.state === "needs-auth"
    ) {
      this.close({ login: row.server });
    } else if (action === "confirm" && row?.kind !== "tool") this.expand();
    else this.set(this.next(action));
  }

  /** The state after an action that only changes the panel's state. */
  private next(action: PanelAction): PanelState {
    const state = this.state;
    switch (action) {
      case "up":
        return moveCursor(state, -1);
      case "down":
        return moveCursor(state, 1);
      case "scope":
        return toggleScope(state);
      case "toggle-disabled":
        return toggleDisabled(state);
      case "toggle-direct":
      case "confirm":
        return this.toolsKnown() ? toggleDirect(state) : state;
      default:
        return state;
    }
  }

  /** A tool row's toggle needs the tool list; a server row's never does. */
  private toolsKnown(): boolean {
    const row = currentRow(this.state);
    return row?.kind !== "tool" || serverOf(this.state, row.server)?.tools !== undefined;
  }

  private expand(): void {
    const before = this.state;
    this.set(toggleExpanded(this.state));
    const row = currentRow(before);
    if (!row || before.expanded.includes(row.server)) return;
    const server = serverOf(this.state, row.server);
    if (!server || server.tools !== undefined) return;
    if (server.disabled) {
      this.setServer(row.server, { listError: "disabled: enable it (e) and save to list its tools" });
      return;
    }
    // A failure shown before is stale now; the row says "listing tools…" meanwhile.
    this.setServer(row.server, { listError: undefined });
    this.listTools(row.server);
  }

  /** Lists a server's tools into the panel; may connect a server not listed yet. */
  private listTools(name: string): void {
    void this.options.runtime.catalog.view(name).then(
      (view) => {
        const tools = view.tools
          .filter((t) => t.kind === "tool" && t.server === name)
          .map((t) => {
            const change = this.options.runtime.pins.changeOf(name, t.name);
            const summary = change && (change.kind === "new" ? "new" : toolChangeSummary(change));
            return { name: t.name, description: t.description, ...(summary ? { change: summary } : {}) };
          });
        const failed = view.unavailable.find((u) => u.server === name);
        this.setServer(
          name,
          failed && !tools.length ? { listError: failed.error, tools: undefined } : { tools },
        );
      },
      (error) => this.setServer(name, { listError: describeError(error), tools: undefined }),
    );
  }

  private setServer(name: string, change: Partial<PanelServer>): void {
    const servers = this.state.servers.map((s) => (s.name === name ? { ...s, ...change } : s));
    this.set(updateServers(this.state, servers));
  }

  private async reconnect(server: string): Promise<void> {
    this.set(withMessage(this.state, `Reconnecting ${server}…`));
    try {
      await this.options.runtime.reconnect(server);
      const count = this.options.runtime.listings.summaries().find((s) => s.name === server)?.toolCount ?? 0;
      this.set(withMessage(this.state, `${server}: reconnected, ${count} tool${count === 1 ? "" : "s"}`));
    } catch (error) {
      this.set(withMessage(this.state, `${server}: ${describeError(error)}`));
    }
  }

  private async saveEdits(): Promise<void> {
    if (pendingCount(this.state) === 0) {
      this.set(withMessage(this.state, "Nothing to save."));
      return;
    }
    const { edits, scope } = this.state;
    try {
      const { trusted, agentDir } = this.options;
      const file = await savePanelEdits({ scope, cwd: this.cwd, edits, trusted, agentDir });
      this.close({ saved: { file, state: editsSaved(this.state, file), servers: Object.keys(edits) } });
    } catch (error) {
      this.set(withMessage(this.state, `Not saved: ${describeError(error)}`));
    }
  }
}
