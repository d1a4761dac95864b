/**
 * The one place that turns a `Host` into the handlers a connection answers
 * server→client requests with (elicitation, sampling, roots). The transport
 * declares exactly the client capabilities whose handlers exist, so a host
 * that gets no handler declares nothing and servers never wait on it.
 */
import type { ClientHandlers } from "@pi-mcp-adapter/transport";
import type { Host } from "./host.js";
import type { SessionRoots } from "./session-roots.js";

/** What the runtime itself knows that handlers answer with (not the host's: the session's roots). */
export interface SessionContext {
  /** The session's working directory (and trusted ancestors) as `file://` roots. */
  roots?: SessionRoots;
}

/**
 * Elicitation (dialogs, only when `host.hasUI`) and sampling (`host.sample`)
 * are later features, and each adds its key here. Roots are offered whenever
 * the session has them: listing them needs no person.
 */
export function clientHandlersFor(_host: Host, session: SessionContext = {}): ClientHandlers {
  const roots = session.roots;
  return {
    ...(roots ? { roots: async () => roots.list() } : {}),
  };
}
