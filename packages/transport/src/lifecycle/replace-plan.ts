/**
 * The plan of `ConnectionManager.replace`, apart from its I/O: given the
 * servers held now and the list wanted, which names go, which are new, which
 * changed what they run (`redefined`) or only whether they are on (`toggled`),
 * and which stay as they are — each in list order — and the report of it.
 */
import { definitionKey, type ServerDefinition } from "@pi-mcp-adapter/core";

/** What `replace` changed, by server name, each in list order. */
export interface ReplaceReport {
  /** New names; enabled eager and keep-alive ones have connected (or failed) by the time `replace` resolves. */
  added: string[];
  /** Names no longer listed: closed and gone. */
  removed: string[];
  /** `definitionKey` changed (what the server runs): the connection was dropped, to connect afresh. */
  redefined: string[];
  /** Only `disabled` changed: closed when disabled; when enabled, connected as its lifecycle says. */
  toggled: string[];
}

/** One listed server and what becomes of it; `kept` takes the newest definition (its provenance) only. */
export interface ReplaceStep<D extends ServerDefinition> {
  kind: "added" | "kept" | "redefined" | "toggled";
  definition: D;
}

export interface ReplacePlan<D extends ServerDefinition> {
  /** Held names no longer listed, in the order they are held. */
  removed: string[];
  /** Every listed server, in list order. */
  steps: ReplaceStep<D>[];
}

/** Plans the move from the definitions held (`current`, by name) to the list `servers`. */
export function planReplace<D extends ServerDefinition>(
  current: ReadonlyMap<string, D>,
  servers: D[],
): ReplacePlan<D> {
  const wanted = new Set(servers.map((definition) => definition.name));
  const removed = [...current.keys()].filter((name) => !wanted.has(name));
  // A name listed twice is compared with its earlier listing, as the slots would be by then.
  const held = new Map([...current].filter(([name]) => wanted.has(name)));
  const steps = servers.map((definition): ReplaceStep<D> => {
    const before = held.get(definition.name);
    held.set(definition.name, definition);
    return { kind: before ? (changeOf(before, definition) ?? "kept") : "added", definition };
  });
  return { removed, steps };
}

/** The report of a plan: the names of each kind of change. */
export function replaceReport(plan: ReplacePlan<ServerDefinition>): ReplaceReport {
  const named = (kind: ReplaceStep<ServerDefinition>["kind"]) =>
    plan.steps.filter((step) => step.kind === kind).map((step) => step.definition.name);
  return {
    added: named("added"),
    removed: [...plan.removed],
    redefined: named("redefined"),
    toggled: named("toggled"),
  };
}

/** How a server's definition changed, if it did: what it runs, or only whether it is on. */
function changeOf(before: ServerDefinition, after: ServerDefinition): "redefined" | "toggled" | undefined {
  if (definitionKey(before) !== definitionKey(after)) return "redefined";
  if (Boolean(before.disabled) !== Boolean(after.disabled)) return "toggled";
  return undefined;
}
