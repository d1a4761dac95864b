/**
 * The adapter without Pi, as its hosts (the Pi shell, the CLI) see it: one
 * object per session over parts with one job each —
 *
 *   servers/  the server set: config as loaded, connections, lifecycle
 *   catalog/  what the servers offer: listings, and the questions asked of them
 *   calls/    the ways into the one call pipeline, pins, watches, turn notes
 *
 * — plus the session's trace, stats, OAuth and roots, which it shuts down.
 * It keeps the lifecycle (`start`, `reload`, `replace`, `reconnect`,
 * `shutdown`) and the ways into the pipeline (`call`, `callDirect`, `run`);
 * everything else is a part handed out as a narrow sub-object
 * (runtime-parts.ts). A new feature is a method of its part, never a member here.
 */

import type { ReplaceReport, ServerStatus } from "@pi-mcp-adapter/transport";
import type { CallRequest } from "./calls/call-pipeline.js";
import type { CallResult } from "./calls/call-result.js";
import { type CallOptions, Calls } from "./calls/calls.js";
import { NextTurnNotes } from "./calls/next-turn-notes.js";
import { ResourceWatches } from "./calls/resource-watches.js";
import { SessionTasks } from "./calls/session-tasks.js";
import { ToolPins } from "./calls/tool-pins.js";
import { CatalogQuestions } from "./catalog/catalog-questions.js";
import type { DirectToolSettings } from "./catalog/direct-tools.js";
import { Listings } from "./catalog/listings.js";
import { SamplingUsage } from "./client-features/sampling-usage.js";
import { type Host, headlessHost } from "./host.js";
import type { OAuthWiring } from "./oauth/oauth-wiring.js";
import type { CallObserver } from "./observability/call-observers.js";
import { OutputShapes } from "./observability/output-shapes.js";
import { attachObservers } from "./observability/session-observers.js";
import type { CallStats } from "./observability/stats-observer.js";
import { publishEmptyStatus, watchStatus } from "./observability/status-events.js";
import type { SessionTrace } from "./observability/trace-observer.js";
import { tracedOAuth } from "./observability/trace-sources.js";
import { type RuntimeInternals, registerInternals } from "./runtime-internals.js";
import type { AdapterRuntimeOptions } from "./runtime-options.js";
import type * as Parts from "./runtime-parts.js";
import { ServerSet } from "./servers/server-set.js";

export class AdapterRuntime {
  /** The program this runtime runs in. */
  readonly host: Host;
  /** OAuth logins (`/mcp-auth`, `auth-start` / `auth-complete`, logout); absent without wiring. */
  readonly oauth?: OAuthWiring;
  /** The session trace, when `settings.trace.enabled`; `trace.record` takes events from outside the pipeline. */
  readonly trace?: SessionTrace;
  /** Call stats, when `settings.captureStats` is set. */
  readonly stats?: CallStats;
  readonly servers: Parts.RuntimeServers;
  readonly listings: Parts.RuntimeListings;
  readonly catalog: Parts.RuntimeCatalog;
  readonly pins: Parts.RuntimePins;
  readonly watches: Parts.RuntimeWatches;
  readonly approvals: Parts.RuntimeApprovals;
  readonly tasks: Parts.RuntimeTasks;
  readonly turnNotes: Parts.RuntimeTurnNotes;
  private readonly set: ServerSet;
  private readonly parts: RuntimeInternals;
  private readonly questions: CatalogQuestions;
  private readonly stops: (() => void)[] = [];
  private readonly closing: (() => Promise<void> | void)[];

  constructor(options: AdapterRuntimeOptions) {
    const host = options.host ?? headlessHost();
    const warn = (message: string) => host.notify(message, "warning");
    this.host = host;
    this.trace = options.trace;
    this.stats = options.stats;
    this.oauth = options.oauth && options.trace ? tracedOAuth(options.oauth, options.trace) : options.oauth;
    const reloadConfig = options.reloadConfig;
    const set = new ServerSet({
      ...options,
      reloadCommand: host.reloadCommand,
      // A reload may also change the direct-tool settings, which the catalog keeps.
      reloadConfig: reloadConfig && (() => reloadConfig().then((loaded) => this.loaded(loaded))),
    });
    const now = options.lifecycle?.now;
    const localSkills = () => host.localSkillNames?.() ?? [];
    const catalogOptions = { ...options.catalog, direct: options.direct, now, localSkills };
    const listings = new Listings(set, catalogOptions, options.trace, warn);
    const questions = new CatalogQuestions(set, listings, catalogOptions);
    const notes = new NextTurnNotes();
    const pins = new ToolPins(options, warn, (server) => listings.view(server), host.whenFree?.bind(host));
    const calls = new Calls(set, { listings, questions }, host, options.calls, options.ui, pins, notes);
    const watches = new ResourceWatches(set, (server, uri) => calls.wasRead(server, uri), now);
    const outputShapes = options.outputShapes ?? new OutputShapes();
    this.parts = {
      calls,
      listings,
      outputShapes,
      samplingUsage: options.samplingUsage ?? new SamplingUsage(),
      now: now ?? Date.now,
    };
    registerInternals(this, this.parts);
    this.set = this.servers = set;
    this.questions = this.catalog = questions;
    this.listings = listings;
    this.pins = pins;
    this.watches = watches;
    this.approvals = calls;
    const tasks = new SessionTasks(set, calls, options.taskJournal);
    this.tasks = tasks;
    this.turnNotes = notes;
    // An update of a watched resource: a notice now, a line for the model's next turn (never the content).
    this.stops.push(
      watches.onUpdate(({ server, uri }) => {
        host.notify(`MCP resource updated: ${server} · ${uri}`, "info");
        notes.set(`watch\u0000${server}\u0000${uri}`, watchNote(server, uri));
      }),
    );
    // Every listing a server gives (first, relisted, from the cache) is checked against its pins;
    // one read from the disk cache once the host is free.
    this.stops.push(
      listings.onChange((server) => {
        const listing = listings.listing(server);
        const definition = set.definition(server);
        if (listing && definition) pins.observe(definition, listing, !listings.tools.listedLive(server));
      }),
    );
    this.stops.push(watchStatus(this, (snapshot) => host.status(snapshot), now));
    attachObservers(options, calls, set);
    // The session's roots moved (a new working directory): connected servers are told.
    if (options.roots) this.stops.push(options.roots.onChange(() => void set.notifyRootsChanged()));
    // What shutdown ends, in order, once listeners are gone.
    this.closing = [
      () => watches.close(),
      () => listings.close(),
      () => calls.close(),
      () => set.shutdown(),
      () => tasks.flush(),
      () => calls.dispose(),
      () => pins.close(),
      () => this.oauth?.shutdown(),
      () => this.stats?.flush(),
      () => outputShapes.flush(),
      () => questions.indexSaved(),
      () => this.trace?.close(),
    ];
  }

  /** Makes `servers` the configured list, live; unchanged servers keep their connection and listing. */
  async replace(servers: AdapterRuntimeOptions["servers"]): Promise<void> {
    this.parts.listings.applied(await this.set.replace(servers));
  }

  /** Reads config again and applies it with `replace` (e.g. after `/mcp-adapter disable`); resolves with what changed. */
  async reload(): Promise<ReplaceReport> {
    return this.parts.listings.applied(await this.set.reload());
  }

  /** Connects eager and keep-alive servers in parallel (bounded at 30 s); failures show in status, never throw. */
  start(): Promise<ServerStatus[]> {
    return this.set.start();
  }

  /** Drops a server's connection and connects afresh, then lists its tools again (updating the cache). */
  async reconnect(name: string): Promise<void> {
    await this.set.reconnect(name);
    await this.parts.listings.relist(name);
  }

  /** Calls a catalog entry by its (possibly misspelled) name: a tool, or a resource or prompt listed as one. */
  call(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallResult> {
    return this.parts.calls.call(name, args, options);
  }

  /** Calls a direct tool by its exact prefixed name of `server` (see `Calls.callDirect`). */
  callDirect(...[name, server, args, options]: Parameters<Calls["callDirect"]>): Promise<CallResult> {
    return this.parts.calls.callDirect(name, server, args, options);
  }

  /** Runs any target through the call pipeline: a tool, a resource, a resource template or a prompt. */
  run(request: CallRequest): Promise<CallResult> {
    return this.parts.calls.run(request);
  }

  /** Adds a call observer (trace, stats); returns the function that removes it. See `CallObserver`. */
  observe(observer: CallObserver): () => void {
    return this.parts.calls.observe(observer);
  }

  /** Ends every connection and login; the host's status sink gets an empty snapshot last. */
  async shutdown(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    for (const close of this.closing.splice(0)) await close();
    publishEmptyStatus((snapshot) => this.host.status(snapshot));
  }

  private loaded<T extends { direct?: DirectToolSettings }>(loaded: T): T {
    if (loaded.direct) this.questions.direct = loaded.direct;
    return loaded;
  }
}

/** The line the model reads about a watched resource that changed. */
export function watchNote(server: string, uri: string): string {
  return `MCP resource changed: ${server} · ${uri} (read it again to see the new content)`;
}
