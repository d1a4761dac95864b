/**
 * Trace events that do not come from the call pipeline: OAuth login steps
 * (`auth-start` / `auth-complete` through the proxy tool; `start`,
 * `complete`, `cancel`, `logout` through `/mcp-auth` and `/mcp-adapter
 * logout`), tool listings, and the server→client requests (elicitation,
 * sampling) a host answers. Only the server, the step and how it ended are
 * recorded — never the login URL, code or token the step carried.
 */
import type { OAuthLogins } from "@pi-mcp-adapter/oauth";
import type { ClientHandlers, ConnectOptions } from "@pi-mcp-adapter/transport";
import type { OAuthWiring } from "../oauth/oauth-wiring.js";
import type { SessionTrace, TraceEvent } from "./trace-observer.js";

/** The `OAuthLogins` methods that are login steps (status reads are not). */
const LOGIN_STEPS = new Set(["start", "complete", "cancel", "logout"]);

/** `wiring` with its login steps traced. */
export function tracedOAuth(wiring: OAuthWiring, trace: SessionTrace): OAuthWiring {
  const step = <T>(server: string | undefined, name: string, run: () => Promise<T>) =>
    traced(trace, { event: "auth", server, state: name }, run);
  // A proxy, not a copy: the logins object keeps its own state and private fields.
  const traceLogins = (logins: OAuthLogins) =>
    new Proxy(logins, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== "function") return value;
        const method = value.bind(target) as (name: string, ...rest: unknown[]) => Promise<unknown>;
        if (typeof prop !== "string" || !LOGIN_STEPS.has(prop)) return method;
        return (name: string, ...rest: unknown[]) => step(name, prop, () => method(name, ...rest));
      },
    });
  let logins: Promise<OAuthLogins> | undefined;
  return {
    ...wiring,
    logins: () => (logins ??= wiring.logins().then(traceLogins)),
    proxyAction: (action, server, args) =>
      step(server, action === "auth-start" || action === "auth-complete" ? action : "unknown", () =>
        wiring.proxyAction(action, server, args),
      ),
  };
}

/** Records one server's tool listing (live or from the metadata cache) and how it ended. */
export function tracedListing<T>(
  trace: SessionTrace | undefined,
  server: string,
  list: () => Promise<T>,
): Promise<T> {
  return trace ? traced(trace, { event: "list", server }, list) : list();
}

/** Runs `run`, then records `event` with its duration and outcome (an error by its code only). */
async function traced<T>(trace: SessionTrace, event: TraceEvent, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    trace.record({ ...event, outcome: "ok", durationMs: since(started) });
    return result;
  } catch (error) {
    trace.record({ ...event, outcome: "failed", code: codeOf(error), durationMs: since(started) });
    throw error;
  }
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : "internal";
}

function since(started: number): number {
  return Math.round(performance.now() - started);
}

/**
 * `handlers` with each server→client request traced: elicitation (with the
 * user's action: accept, decline, cancel) and sampling. Handlers a host does
 * not offer stay absent, so no capability is declared because of the trace.
 */
export function tracedHandlers(
  handlers: ConnectOptions["handlers"],
  trace: SessionTrace,
): ConnectOptions["handlers"] {
  if (typeof handlers === "function") {
    return (definition) => {
      const chosen = handlers(definition);
      return chosen && tracedRequests(chosen, trace);
    };
  }
  return handlers && tracedRequests(handlers, trace);
}

function tracedRequests(handlers: ClientHandlers, trace: SessionTrace): ClientHandlers {
  const wrapped = { ...handlers };
  const { elicitation, sampling } = handlers;
  if (elicitation) {
    wrapped.elicitation = async (params, context) => {
      const started = performance.now();
      try {
        const result = await elicitation(params, context);
        trace.record({
          event: "elicitation",
          server: context.server,
          outcome: result.action,
          durationMs: since(started),
        });
        return result;
      } catch (error) {
        trace.record({
          event: "elicitation",
          server: context.server,
          outcome: "failed",
          code: codeOf(error),
          durationMs: since(started),
        });
        throw error;
      }
    };
  }
  if (sampling) {
    wrapped.sampling = (params, context) =>
      traced(trace, { event: "sampling", server: context.server }, () => sampling(params, context));
  }
  return wrapped;
}
