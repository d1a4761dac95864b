/**
 * When a session's runtime is loaded. A session declares its tools and
 * commands from `@pi-mcp-adapter/runtime/startup` alone; the runtime's index
 * (the call path, the transport, the MCP SDK, search) is imported when the
 * runtime is first made — at session start only when something needs it then
 * (`runtimeNeededAtStart`), else once the first model request is on its way or
 * at first use (session/pi-session.ts, session/turn-gates.ts).
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import type { StartupSnapshot } from "@pi-mcp-adapter/runtime/startup";

/** How a command or tool reaches the session's runtime (made on first use). */
export type RuntimeFor = (ctx: ExtensionContext) => Promise<AdapterRuntime>;

export type RuntimeModule = typeof import("@pi-mcp-adapter/runtime");

let loading: Promise<RuntimeModule> | undefined;

/** The runtime's index: imported once, on the first call. */
export function loadRuntimeModule(): Promise<RuntimeModule> {
  loading ??= import("@pi-mcp-adapter/runtime");
  return loading;
}

/** What a session start leaves for its runtime to do before the first prompt. */
export interface StartupWork {
  /** Servers deferred at start-up (`deferWithMissingMetadata`). */
  deferred: readonly string[];
  /** Uncached servers with direct tools, listed before the first prompt. */
  listFirst: readonly string[];
  /** Servers other extensions registered. */
  registrations: readonly unknown[];
  /** MCP tasks an earlier process of the session left running, to follow again (session/task-records.ts). */
  openTasks?: boolean;
}

/**
 * Whether the session's runtime is made when the session starts: someone sees
 * its footer and notices (a UI, where Pi then waits for the user anyway),
 * servers start or list before the first prompt (eager and keep-alive ones,
 * `work`), tasks of an earlier process are to be followed again, or the
 * startup snapshot is missing or for another directory.
 */
export function runtimeNeededAtStart(
  ctx: Pick<ExtensionContext, "hasUI" | "cwd">,
  snapshot: StartupSnapshot | undefined,
  work: StartupWork,
): boolean {
  return (
    ctx.hasUI ||
    !snapshot ||
    snapshot.cwd !== ctx.cwd ||
    work.deferred.length > 0 ||
    work.listFirst.length > 0 ||
    work.registrations.length > 0 ||
    work.openTasks === true ||
    snapshot.servers.some((s) => s.server.lifecycle !== "lazy")
  );
}
