/**
 * The one place that turns a `Host` into the handlers a connection answers
 * server→client requests with (elicitation, sampling, roots). The transport
 * derives the client capabilities it declares from which handlers exist, so
 * a headless host, which gets none of the interactive ones, declares none.
 */
import type { Host } from "./host.js";

/**
 * For the transport's `ConnectOptions.handlers` (`ClientHandlers
 * { elicitation?, sampling?, roots? }`), which lands on a parallel branch.
 * Empty until then: elicitation (dialogs when `host.hasUI`), sampling
 * (`host.sample`) and roots are later issues, and each fills its key here.
 */
export type HostClientHandlers = Record<never, never>;

export function clientHandlersFor(_host: Host): HostClientHandlers {
  return {};
}
