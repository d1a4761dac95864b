/**
 * Direct tools in Pi: each planned MCP tool (see the runtime's
 * `planDirectTools`) registered as a Pi tool of its own, calling through the
 * runtime's pipeline (`callDirect`: approval with origin `direct`, output
 * guard, output schema).
 *
 * Pi 1.x gets `exposure` (`direct`, or `deferred` for `directTools:
 * "search"` so Pi's tool search finds them), a `namespace` per server
 * (`mcp__<server>`, its instructions) and the MCP annotations. Pi 0.7x
 * ignores those fields: there `"search"` tools are registered, then taken
 * out of the active set at session start, and put back when our search
 * returns them or the proxy calls them.
 *
 * What the model activated belongs to the session's branch: the session
 * (activated-tools.ts) records each activation and hands back the ones on
 * the current branch at session start and after `/tree`. On Pi 1.x a
 * deferred tool that is active was loaded by Pi itself (its `tool_search`,
 * or its transcript on resume and `/tree`): it counts as activated and is
 * never taken out again.
 *
 * Pi cannot unregister a tool: one the server stops offering leaves the
 * active set, and calling it anyway fails with a message saying so.
 */
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { foldName, type ToolMetadata } from "@pi-mcp-adapter/core";
import type { CallResult } from "@pi-mcp-adapter/runtime";
import {
  checkArguments,
  type DirectTool,
  type DirectToolPlan,
  directDeclaration,
} from "@pi-mcp-adapter/runtime/startup";
import type { RuntimeFor } from "../host/runtime-loading.js";
import { argumentSummary, type RenderSettings, resultRenderers } from "../render/render-results.js";
import type { RowTarget } from "../render/running-rows.js";

/** Tools Pi itself (either line) may declare; a direct tool never takes their names. */
export const PI_TOOL_NAMES = [
  "read",
  "bash",
  "edit",
  "write",
  "grep",
  "find",
  "ls",
  "tool_search",
  "codemode",
];

/** What Pi 1.x reads of an MCP server's tools (types of the older line lack these fields). */
interface PiToolExtras {
  exposure?: "direct" | "deferred";
  namespace?: { name: string; aliases?: readonly string[]; description?: string; instructions?: string };
  annotations?: Record<string, boolean>;
  defaultActive?: boolean;
}

export interface DirectToolsOptions {
  runtimeFor: RuntimeFor;
  /** A server's instructions, for its namespace (from the last listing, live or cached). */
  instructions?: (server: string) => string | undefined;
  /** `strictDirectToolArguments`, read when a tool is registered. */
  strict?: () => boolean;
  /** `toolResultRendering` and `collapsedResultLines`, read when a tool is registered. */
  render?: () => RenderSettings;
  /** Called with the `"search"` tools an activation woke, so the session can record them. */
  activated?: (names: readonly string[]) => void;
  /** Runs a call with a row its progress is drawn in (`running-rows.ts`); without it, calls run bare. */
  running?: <T>(
    target: RowTarget,
    update: unknown,
    ctx: ExtensionContext,
    call: () => Promise<T>,
  ) => Promise<T>;
}

/** The text of a result, for the error Pi shows when a call failed. */
export function resultText(result: Pick<CallResult, "content">): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("\n");
}

/** Status lines of the last plan: direct tools that could not be registered, and what `"auto"` decided. */
export function directStatusLines(last: Pick<DirectToolRegistrar, "problems" | "auto">): string[] {
  const lines = last.problems.map((p) => `warning: direct tools: ${p}`);
  return last.auto ? [...lines, last.auto.reason] : lines;
}

export class DirectToolRegistrar {
  /** Registered tools by name, with the signature they were registered with. */
  private readonly registered = new Map<string, { tool: DirectTool; signature: string }>();
  /** Names in the current plan (registered tools not in it are gone). */
  private offered = new Set<string>();
  /** `"search"` tools the model reached on this session's branch; the others stay out of the active set. */
  private reached = new Set<string>();
  /** Servers whose tools were synced once: a frozen surface changes only for servers not seen yet. */
  private readonly synced = new Set<string>();
  private frozen = false;
  private bound = false;
  /** The problems of the last plan (collisions, unknown names), for status. */
  problems: string[] = [];
  /** What `directTools: "auto"` decided, as the last plan followed it (for status). */
  auto: DirectToolPlan["auto"];

  constructor(
    private readonly pi: ExtensionAPI,
    private readonly options: DirectToolsOptions,
  ) {}

  /** Names of the registered direct tools still offered, in registration order. */
  get names(): string[] {
    return [...this.registered.keys()].filter((n) => this.offered.has(n));
  }

  /** How many direct tools of `server` are registered and offered now. */
  countOf(server: string): number {
    return this.names.filter((n) => this.registered.get(n)?.tool.tool.server === server).length;
  }

  /** Whether this registrar registered `name` (offered now or not). */
  owns(name: string): boolean {
    return this.registered.has(name);
  }

  /** The registered direct names of one MCP tool (by its original or prefixed name). */
  namesOf(server: string, tool: string): string[] {
    if (this.registered.size === 0) return []; // proxy-only sessions: every call asks this
    return [...this.registered.values()]
      .filter(({ tool: d }) => d.tool.server === server && (d.tool.name === tool || d.name === tool))
      .map(({ tool: d }) => d.name);
  }

  /** After the initial sync with `freezeDirectTools`: later plans change nothing already registered. */
  freeze(): void {
    this.frozen = true;
  }

  /** Registers what `plan` adds or changes and retires what it drops (frozen: new servers only). */
  sync(plan: DirectToolPlan): void {
    this.problems = plan.problems;
    this.auto = plan.auto;
    const tools = this.frozen ? plan.tools.filter((t) => !this.synced.has(t.tool.server)) : plan.tools;
    const next = new Set(this.frozen ? this.offered : []);
    for (const direct of tools) {
      next.add(direct.name);
      this.synced.add(direct.tool.server);
      const signature = signatureOf(direct);
      if (this.registered.get(direct.name)?.signature === signature) continue;
      this.registered.set(direct.name, { tool: direct, signature });
      this.pi.registerTool(this.definition(direct) as never);
    }
    const dropped = [...this.offered].filter((n) => !next.has(n));
    this.offered = next;
    if (this.bound) this.applyActive(dropped);
  }

  /**
   * A session has started (new, resumed or continued) with the `"search"`
   * tools activated on its branch: the active set may be changed now.
   * The other `"search"` tools leave it on the line that activated them at
   * registration, and Pi 1.x's own tool search is made available for them.
   */
  sessionStarted(reached: Iterable<string>): void {
    this.bound = true;
    this.branchChanged(reached);
  }

  /** `/tree` moved to another branch: what was activated there is active, nothing else. */
  branchChanged(reached: Iterable<string>): void {
    this.reached = new Set(reached);
    if (this.bound) this.applyActive([]);
  }

  /** Makes these `"search"` tools active (our search returned them, or the proxy called one). */
  activate(names: readonly string[]): void {
    if (names.length === 0) return;
    const woken = [...new Set(names)].filter((n) => this.isDormant(n));
    if (woken.length === 0) return;
    for (const name of woken) this.reached.add(name);
    this.options.activated?.(woken);
    if (this.bound) this.applyActive([]);
  }

  /** A registered `"search"` tool the model has not reached on this branch. */
  private isDormant(name: string): boolean {
    return this.registered.get(name)?.tool.exposure === "search" && !this.reached.has(name);
  }

  private applyActive(dropped: readonly string[]): void {
    try {
      const active = new Set(this.pi.getActiveTools());
      const before = active.size;
      for (const name of loadedByPi(this.pi, active)) if (this.registered.has(name)) this.reached.add(name);
      const keep = (name: string) => !dropped.includes(name) && !this.isDormant(name);
      for (const name of active) if (this.registered.has(name) && !keep(name)) active.delete(name);
      let added = 0;
      for (const name of this.names) {
        if (keep(name) && !active.has(name)) {
          active.add(name);
          added++;
        }
      }
      // Pi 1.x's `tool_search` is how the model finds deferred tools; it is registered inactive.
      const hasDormant = this.names.some((n) => this.isDormant(n));
      if (
        hasDormant &&
        !active.has("tool_search") &&
        this.pi.getAllTools().some((t) => t.name === "tool_search")
      ) {
        active.add("tool_search");
        added++;
      }
      if (added > 0 || active.size !== before) this.pi.setActiveTools([...active]);
    } catch {
      // Before the session binds, Pi has no active set yet; the next session start applies it.
    }
  }

  private definition(direct: DirectTool): Record<string, unknown> {
    const { tool } = direct;
    const name = direct.name;
    const server = tool.server;
    const instructions = this.options.instructions?.(server);
    const extras: PiToolExtras = {
      exposure: direct.exposure === "search" ? "deferred" : "direct",
      namespace: {
        name: `mcp__${foldName(server)}`,
        aliases: [server],
        description: namespaceDescription(server, instructions),
        ...(instructions ? { instructions } : {}),
      },
      ...(annotationsOf(tool) ? { annotations: annotationsOf(tool) } : {}),
    };
    // Pi converts arguments to the schema's types before `execute` ("2" becomes 2); strict checks
    // what the model sent, before that conversion, and names the field that does not fit.
    const strict = this.options.strict?.()
      ? {
          prepareArguments: (args: unknown) => {
            const raw = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
            checkArguments(name, tool.inputSchema, raw);
            return args;
          },
        }
      : {};
    // The server's JSON Schema as is (both Pi lines accept plain JSON Schema), as token costs count it.
    const { description, parameters } = directDeclaration(name, tool);
    return {
      name,
      label: `${server}: ${tool.annotations?.title ?? tool.name}`,
      description,
      parameters,
      ...extras,
      ...strict,
      ...resultRenderers(
        this.options.render?.() ?? {},
        (args) =>
          `${server}: ${tool.name}${args && Object.keys(args).length ? ` ${argumentSummary(args)}` : ""}`,
      ),
      execute: async (
        id: string,
        params: Record<string, unknown>,
        signal: AbortSignal | undefined,
        update: unknown,
        ctx: ExtensionContext,
      ) => {
        if (!this.offered.has(name)) {
          throw new Error(
            `MCP server "${server}" no longer offers the tool "${name}". Search with mcp({ search }).`,
          );
        }
        const runtime = await this.options.runtimeFor(ctx);
        const call = () => runtime.callDirect(name, server, params ?? {}, { signal, callId: id });
        const running = this.options.running;
        const result = await (running ? running({ server, tool: tool.name }, update, ctx, call) : call());
        // The older Pi line ignores `isError` in results: throwing marks an error in both.
        if (result.isError) throw new Error(resultText(result));
        return { content: result.content, details: result.details };
      },
    };
  }
}

/** Deferred tools Pi 1.x reports active: Pi loaded them (the older line reports no exposure). */
function loadedByPi(pi: ExtensionAPI, active: ReadonlySet<string>): string[] {
  return pi
    .getAllTools()
    .filter((t) => active.has(t.name) && (t as { exposure?: string }).exposure === "deferred")
    .map((t) => t.name);
}

function signatureOf(direct: DirectTool): string {
  const { tool } = direct;
  return JSON.stringify([direct.exposure, tool.server, tool.description, tool.inputSchema, tool.annotations]);
}

function annotationsOf(tool: ToolMetadata): Record<string, boolean> | undefined {
  const a = tool.annotations;
  if (!a) return undefined;
  const out: Record<string, boolean> = {};
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (typeof a[key] === "boolean") out[key] = a[key];
  }
  return Object.keys(out).length ? out : undefined;
}

/** One line for tool listings: the first sentence of the instructions, else the server's name. */
function namespaceDescription(server: string, instructions: string | undefined): string {
  const first = instructions
    ?.trim()
    .split(/\n|(?<=\.)\s/)[0]
    ?.trim();
  if (!first) return `Tools of the MCP server ${server}`;
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}
