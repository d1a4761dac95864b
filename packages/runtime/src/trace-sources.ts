/**
 * Trace events that do not come from the call pipeline: OAuth login steps
 * (`auth-start` / `auth-complete` through the proxy tool; `start`,
 * `complete`, `cancel`, `logout` through `/mcp-auth` and `/mcp-adapter
 * logout`) and tool listings. Only the server, the step and how it ended are
 * recorded — never the login URL, code or token the step carried.
 */
import type { OAuthWiring } from "./oauth-wiring.js";
import type { SessionTrace, TraceEvent } from "./trace-observer.js";

/** The `OAuthLogins` methods that are login steps (status reads are not). */
const LOGIN_STEPS = new Set(["start", "complete", "cancel", "logout"]);

/** `wiring` with its login steps traced. */
export function tracedOAuth(wiring: OAuthWiring, trace: SessionTrace): OAuthWiring {
  const step = <T>(server: string | undefined, name: string, run: () => Promise<T>) =>
    traced(trace, { event: "auth", server, state: name }, run);
  // A proxy, not a copy: the logins object keeps its own state and private fields.
  const logins = new Proxy(wiring.logins, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const method = value.bind(target) as (name: string, ...rest: unknown[]) => Promise<unknown>;
      if (typeof prop !== "string" || !LOGIN_STEPS.has(prop)) return method;
      return (name: string, ...rest: unknown[]) => step(name, prop, () => method(name, ...rest));
    },
  });
  return {
    ...wiring,
    logins,
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
    const code = (error as { code?: unknown } | undefined)?.code;
    trace.record({
      ...event,
      outcome: "failed",
      code: typeof code === "string" ? code : "internal",
      durationMs: since(started),
    });
    throw error;
  }
}

function since(started: number): number {
  return Math.round(performance.now() - started);
}
