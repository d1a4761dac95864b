/**
 * Trace events that do not come from the call pipeline: OAuth login steps
 * taken through the proxy tool (`auth-start`, `auth-complete`) and tool
 * listings. Only the server, the step and how it ended are recorded — never
 * the login URL, code or token the step carried.
 */
import type { OAuthWiring } from "./oauth-wiring.js";
import type { SessionTrace } from "./trace-observer.js";

/** `wiring` with its proxy login steps traced. */
export function tracedOAuth(wiring: OAuthWiring, trace: SessionTrace): OAuthWiring {
  return {
    ...wiring,
    proxyAction: async (action, server, args) => {
      const started = performance.now();
      const step = action === "auth-start" || action === "auth-complete" ? action : "unknown";
      try {
        const answer = await wiring.proxyAction(action, server, args);
        trace.record({ event: "auth", server, state: step, outcome: "ok", durationMs: since(started) });
        return answer;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        trace.record({
          event: "auth",
          server,
          state: step,
          outcome: "failed",
          code: typeof code === "string" ? code : "internal",
          durationMs: since(started),
        });
        throw error;
      }
    },
  };
}

/** Records one server's tool listing (live or from the metadata cache) and how it ended. */
export async function tracedListing<T>(
  trace: SessionTrace | undefined,
  server: string,
  list: () => Promise<T>,
): Promise<T> {
  if (!trace) return list();
  const started = performance.now();
  try {
    const result = await list();
    trace.record({ event: "list", server, outcome: "ok", durationMs: since(started) });
    return result;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    trace.record({
      event: "list",
      server,
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
