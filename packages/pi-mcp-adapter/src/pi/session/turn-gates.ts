/**
 * The waits that keep a prompt or a call from outrunning the session's
 * registration work: the first prompt waits for what start-up listed before
 * it, a later prompt also for deferred servers, a proxy call or Pi's tool
 * search for tools still being registered, and every call for a change of
 * registered servers being applied. Also when a runtime nobody needed at
 * session start is made, and when search warms up (the first model request).
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { PROXY_TOOL_NAME, type StartupSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { loadRuntimeModule, type RuntimeFor } from "../host/runtime-loading.js";
import { AfterRequestSent } from "./request-sent.js";

export interface TurnGatesDeps {
  runtimeFor: RuntimeFor;
  /** The session's runtime once made (never makes one). */
  live(): AdapterRuntime | undefined;
  /** The startup snapshot search warms up from. */
  snapshot(): StartupSnapshot | undefined;
}

export class TurnGates {
  /** Servers deferred at start-up being listed (`deferWithMissingMetadata`). */
  private registering: Promise<unknown> | undefined;
  /** What start-up lists before the first prompt, then each change of registered servers, in order. */
  private applying: Promise<void> | undefined;
  /** Agent runs (user prompts) of this session so far. */
  private agentRuns = 0;
  /** The session whose runtime waits for the first model request (see `PiSession.sessionStarted`). */
  private waiting: ExtensionContext | undefined;
  /** The search warm-up was started (at the first model request; once per session). */
  private warmingUp = false;
  /** The runtime and the warm-up wait until the first request has left (request-sent.ts). */
  private readonly afterSent = new AfterRequestSent();
  /**
   * The model answered with tool calls, and the request carrying their results has not left yet: the
   * warm-up takes no step meanwhile (the model waits on this process, not the other way round).
   */
  private toolTurn: Hold | undefined;
  /** The hold of tool calls whose results are in a request not yet sent: it ends once that request has left. */
  private leaving: Hold | undefined;

  constructor(private readonly deps: TurnGatesDeps) {}

  /** A session starts: no prompt has run, nothing is being listed. */
  sessionStarted(): void {
    this.agentRuns = 0;
    this.registering = undefined;
  }

  /** The session's runtime is made once the first model request is on its way (or at first use). */
  waitForFirstRequest(ctx: ExtensionContext): void {
    this.waiting = ctx;
  }

  /** A runtime is made: nothing waits for the first request any more (the search warm-up still does). */
  stopWaiting(): void {
    this.waiting = undefined;
  }

  /** The session's runtime is shut down: nothing waits for the first request, not even the warm-up. */
  sessionEnded(): void {
    this.waiting = undefined;
    this.afterSent.cancel();
    for (const hold of [this.toolTurn, this.leaving]) hold?.end();
    this.toolTurn = this.leaving = undefined;
  }

  /** The work a started session does before its prompts: deferred servers, and what lists first. */
  startupWork(registering: Promise<unknown> | undefined, applying: Promise<void>): void {
    this.registering = registering;
    this.applying = applying;
  }

  /** Runs `work` after the changes before it; prompts and calls wait for it. */
  afterApplying(work: () => Promise<void>): Promise<void> {
    const applied = (this.applying ?? Promise.resolve()).then(work);
    this.applying = applied.catch(() => {});
    return this.applying;
  }

  /**
   * A tool a server added during the last turn is registered before the next prompt's request.
   * Deferred servers never hold up the first prompt (that is what deferring means); later ones wait.
   */
  async beforeAgentStart(): Promise<void> {
    if (this.agentRuns++ > 0) await this.registering;
    await this.applying;
    await this.deps.live()?.listings.settled();
  }

  /**
   * A model request is about to go out: once the first one has left (request-sent.ts), search
   * warms up while the model answers (search-warm-up.ts: one server per event-loop turn), so the
   * session's first search finds the word vectors read and the search code compiled. Loading the
   * runtime's code before the request left would hold the request up by as long. The warm-up takes
   * steps only while the model answers: from a tool call until the next request has left it waits
   * (a model that answers at once otherwise finds its first search behind the warm-up's work).
   */
  providerRequest(): void {
    const warmUp = this.warmingUp ? undefined : this.deps.snapshot();
    if (warmUp) this.warmingUp = true;
    // The tool calls this request answers are over once it has left; a tool call after this one holds anew.
    const leaving = this.toolTurn;
    this.toolTurn = undefined;
    if (leaving) this.leaving = leaving;
    if (!warmUp && !this.waiting && !leaving) return;
    this.afterSent.schedule(() => {
      leaving?.end();
      if (this.leaving === leaving) this.leaving = undefined;
      // A runtime nobody needed before the first request is made now (see `PiSession.sessionStarted`).
      if (this.waiting) this.deps.runtimeFor(this.waiting);
      const whenFree = () => this.whenFree();
      if (warmUp) void loadRuntimeModule().then(({ warmUpSearch }) => warmUpSearch(warmUp, { whenFree }));
    });
  }

  /** The model's response began (`after_provider_response`): work still waiting for the request to leave runs. */
  providerResponded(): void {
    this.afterSent.now();
  }

  /**
   * What work that can wait (the search warm-up's next step, comparing cached listings with their pins)
   * waits for: `undefined` while the model answers, else the tool turn's end.
   */
  whenFree(): Promise<void> | undefined {
    return (this.toolTurn ?? this.leaving)?.over;
  }

  /**
   * A call through the proxy or Pi's tool search waits for direct tools still being registered; any
   * tool call holds the search warm-up until the next request has left.
   */
  async beforeToolCall(toolName: string): Promise<void> {
    this.afterSent.now();
    this.toolTurn ??= hold();
    // A server registered or unregistered a moment ago is applied before any call runs.
    await this.applying;
    if (this.registering && (toolName === PROXY_TOOL_NAME || toolName === "tool_search")) {
      await this.registering;
    }
  }
}

/** A wait that ends once, when `end` is called. */
interface Hold {
  over: Promise<void>;
  end: () => void;
}

function hold(): Hold {
  let end!: () => void;
  const over = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { over, end };
}
