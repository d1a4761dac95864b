/**
 * What the package's own tools (the proxy and script dispatch) and tests
 * reach of a runtime that hosts do not: the call pipeline's ways in, the
 * listings, output shapes, sampling usage and the session's clock. Kept off `AdapterRuntime`'s
 * public type, and in a module of its own that imports only types, so the
 * light `./startup` entry (mcpScript's dispatch) does not load the call path.
 */
import type { Calls } from "./calls/calls.js";
import type { Listings } from "./catalog/listings.js";
import type { SamplingUsage } from "./client-features/sampling-usage.js";
import type { OutputShapes } from "./observability/output-shapes.js";

export interface RuntimeInternals {
  calls: Calls;
  listings: Listings;
  outputShapes: OutputShapes;
  samplingUsage: SamplingUsage;
  /** The session's clock (the host's `environment.now`), for the ages status text shows. */
  now: () => number;
}

const internals = new WeakMap<object, RuntimeInternals>();

/** Called once by each `AdapterRuntime` as it is built. */
export function registerInternals(runtime: object, parts: RuntimeInternals): void {
  internals.set(runtime, parts);
}

/** The parts of `runtime` not on its public type; throws for anything not built as an `AdapterRuntime`. */
export function internalsOf(runtime: object): RuntimeInternals {
  const parts = internals.get(runtime);
  if (!parts) throw new Error("internalsOf: not an AdapterRuntime");
  return parts;
}
