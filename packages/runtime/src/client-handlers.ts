/**
 * The one place that turns a `Host` into the handlers a connection answers
 * server→client requests with (elicitation, sampling, roots). The transport
 * declares exactly the client capabilities whose handlers exist, so a host
 * that gets no handler declares nothing and servers never wait on it.
 */
import type { ClientHandlers } from "@pi-mcp-adapter/transport";
import type { Host } from "./host.js";

/**
 * Empty for now: elicitation (dialogs, only when `host.hasUI`), sampling
 * (`host.sample`) and roots are later features, and each adds its key here.
 */
export function clientHandlersFor(_host: Host): ClientHandlers {
  return {};
}
