/**
 * What hosts reach of a runtime's parts: one narrow face per subject, each
 * the part's own methods (`AdapterRuntime.watches` is the session's
 * `ResourceWatches`, seen through `RuntimeWatches`). A feature adds a
 * method to its part and, if hosts need it, a name here; never a member of
 * `AdapterRuntime` (test/facade.test.ts holds it to lifecycle, `call`, `run`
 * and these sub-objects).
 */
import type { Calls } from "./calls/calls.js";
import type { NextTurnNotes } from "./calls/next-turn-notes.js";
import type { ResourceWatches } from "./calls/resource-watches.js";
import type { SessionTasks } from "./calls/session-tasks.js";
import type { ToolPins } from "./calls/tool-pins.js";
import type { CatalogQuestions } from "./catalog/catalog-questions.js";
import type { Listings } from "./catalog/listings.js";
import type { ServerSet } from "./servers/server-set.js";

/** The configured servers as last loaded: config problems, definitions, debug stderr, connection status. */
export type RuntimeServers = Pick<ServerSet, "problems" | "definition" | "debugStderr" | "onStatus">;

/** Listings: every server's status with what is listed of it, tools known without connecting, their changes. */
export type RuntimeListings = Pick<Listings, "summaries" | "known" | "onChange" | "settled">;

/** Questions about what the servers offer: view, search, resolve, prompts, skills, completions, direct tools. */
export type RuntimeCatalog = Pick<
  CatalogQuestions,
  | "view"
  | "search"
  | "resolve"
  | "instructions"
  | "prompts"
  | "knownPrompts"
  | "knownSkills"
  | "skillByUri"
  | "complete"
  | "directTools"
> &
  Readonly<Pick<CatalogQuestions, "direct">>;

/** Tool pinning: what changed since the user accepted a server's tools, and accepting them. */
export type RuntimePins = Pick<ToolPins, "report" | "changeOf" | "accept">;

/** Resource watches (`resources/subscribe`) of the session. */
export type RuntimeWatches = Pick<ResourceWatches, "watch" | "unwatch" | "list" | "onUpdate">;

/** "Allow for session" approval grants, for a host to store with its session and restore. */
export type RuntimeApprovals = Pick<Calls, "restoreGrants" | "onGrant">;

/**
 * MCP tasks: those running now per server, their records for the host to keep
 * with its session, and following again (and cancelling) the tasks an earlier process left running.
 */
export type RuntimeTasks = Pick<
  SessionTasks,
  "of" | "onChange" | "onRecord" | "setSession" | "resume" | "cancel" | "settled"
>;

/** Notes for the model's next turn (changed watched resources, MCP App contexts). */
export type RuntimeTurnNotes = Pick<NextTurnNotes, "take">;
