/**
 * The one place that turns a `Host` into the handlers a connection answers
 * server→client requests with (elicitation, sampling, roots). The transport
 * declares exactly the client capabilities whose handlers exist, so a host
 * that gets no handler declares nothing and servers never wait on it.
 */
import type { ClientHandlers } from "@pi-mcp-adapter/transport";
import type { Host } from "../host.js";
import { createDialogQueue } from "./dialog-queue.js";
import { elicitationHandler } from "./elicitation-flow.js";
import { RequestRateLimit, type RequestRateLimitOptions } from "./request-rate-limit.js";
import { samplingHandler } from "./sampling-flow.js";
import type { SamplingUsage } from "./sampling-usage.js";
import type { SessionRoots } from "./session-roots.js";

/** The settings that decide which requests are answered (`settings.elicitation`, `sampling`, `samplingAutoApprove`). */
export interface ClientHandlerSettings {
  elicitation?: boolean;
  sampling?: boolean;
  samplingAutoApprove?: boolean;
  /** The session's roots (its working directory and trusted ancestors as `file://` URIs); not a user setting. */
  roots?: SessionRoots;
  /** The per-server bound on forms and sampling approvals (see request-rate-limit.ts); not a user setting. */
  rateLimit?: RequestRateLimitOptions;
}

/**
 * - elicitation (form and URL): only when the host has a UI, unless
 *   `elicitation: false`. Headless, nobody could answer, so it is not declared.
 * - sampling: when the host has a model (`host.sample`) and either a UI to
 *   approve each request or `samplingAutoApprove: true`; `sampling: false`
 *   turns it off.
 * - roots: whenever the session has them (listing them needs no person).
 *
 * Forms and sampling approvals count against each server's rate limit; over
 * it they are refused, and the host is told once.
 */
export function clientHandlersFor(
  host: Host,
  settings: ClientHandlerSettings = {},
  usage?: SamplingUsage,
): ClientHandlers {
  const handlers: ClientHandlers = {};
  // Forms and sampling approvals never interleave their dialogs.
  const queue = createDialogQueue();
  if (host.hasUI && settings.elicitation !== false) {
    handlers.elicitation = elicitationHandler(host, queue);
    handlers.elicitationModes = ["form", "url"];
  }
  const autoApprove = settings.samplingAutoApprove === true;
  if (host.sample && settings.sampling !== false && (host.hasUI || autoApprove)) {
    handlers.sampling = samplingHandler(host, { autoApprove, queue, ...(usage ? { usage } : {}) });
  }
  const roots = settings.roots;
  if (roots) handlers.roots = async () => roots.list();
  const limit = new RequestRateLimit((message) => host.notify(message, "warning"), settings.rateLimit);
  return limit.wrap(handlers);
}
