/**
 * One interactive login: starts the loopback listener, runs the SDK flow up
 * to the authorization URL, then finishes on whichever comes first — the
 * browser reaching the listener, or the user pasting the callback address or
 * code (`complete`). Used by `/mcp-auth` and by `auth-start`/`auth-complete`.
 */
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { readCallbackParams, readPastedCallback } from "./callback-input.js";
import { OAuthError } from "./errors.js";
import { type LoopbackListener, startLoopbackListener } from "./loopback-listener.js";
import { McpOAuthProvider, type McpOAuthProviderOptions } from "./mcp-oauth-provider.js";

export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export interface OAuthLoginOptions
  extends Omit<McpOAuthProviderOptions, "redirectUrl" | "onAuthorizationUrl"> {
  /** Loopback listener port; 0 (default) picks a free one per login. */
  callbackPort?: number;
  /** Skip the listener and use this redirect URL (paste-only hosts). */
  redirectUrl?: string;
  fetch?: FetchLike;
  /** How long a pending login waits for its callback. */
  timeoutMs?: number;
}

export interface OAuthLogin {
  /** `authorized` when stored or refreshed tokens sufficed and no browser step is needed. */
  readonly status: "authorized" | "pending";
  /** Open this in a browser (pending logins only). */
  readonly authorizationUrl: URL | undefined;
  readonly redirectUrl: string | undefined;
  /** Settles when the login finishes, fails, times out or is cancelled. */
  readonly done: Promise<void>;
  /** Finishes with a pasted callback address, query string or bare code. */
  complete(pasted: string): Promise<void>;
  cancel(): Promise<void>;
}

export async function startOAuthLogin(options: OAuthLoginOptions): Promise<OAuthLogin> {
  let finished: Promise<void> | undefined;
  let settle!: { resolve: () => void; reject: (error: unknown) => void };
  const done = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  done.catch(() => {}); // callers may only await `complete`

  let listener: LoopbackListener | undefined;
  let timer: NodeJS.Timeout | undefined;
  // Not awaited: the listener first answers the browser request that finished the login.
  const cleanup = async () => {
    clearTimeout(timer);
    void listener?.close();
  };

  const finish = (code: string): Promise<void> => {
    finished ??= auth(provider, {
      serverUrl: provider.credentials.url,
      authorizationCode: code,
      fetchFn: options.fetch,
    })
      .then(async () => {
        await cleanup();
        settle.resolve();
      })
      .catch(async (error: unknown) => {
        await cleanup();
        const wrapped =
          error instanceof OAuthError
            ? error
            : new OAuthError(
                "authorization_failed",
                `OAuth login for "${options.server}" failed: ${describe(error)}`,
                {
                  cause: error,
                },
              );
        settle.reject(wrapped);
        throw wrapped;
      });
    return finished;
  };

  if (!options.redirectUrl) {
    listener = await startLoopbackListener({
      port: options.callbackPort ?? 0,
      onCallback: async (params) => finish(readCallbackParams(params, provider.expectedState).code),
    });
  }
  let authorizationUrl: URL | undefined;
  const provider = new McpOAuthProvider({
    ...options,
    redirectUrl: options.redirectUrl ?? listener?.redirectUrl,
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
    },
  });

  let result: "AUTHORIZED" | "REDIRECT";
  try {
    result = await auth(provider, { serverUrl: provider.credentials.url, fetchFn: options.fetch });
  } catch (error) {
    await cleanup();
    if (error instanceof OAuthError) throw error;
    throw new OAuthError(
      "authorization_failed",
      `OAuth login for "${options.server}" failed: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
  if (result === "AUTHORIZED") {
    await cleanup();
    settle.resolve();
  } else {
    timer = setTimeout(() => {
      if (finished) return;
      void cleanup();
      settle.reject(
        new OAuthError(
          "callback_timeout",
          `OAuth login for "${options.server}" timed out waiting for the callback`,
        ),
      );
    }, options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
    timer.unref();
  }

  return {
    status: result === "AUTHORIZED" ? "authorized" : "pending",
    authorizationUrl,
    redirectUrl: provider.redirectUrl,
    done,
    complete: async (pasted) => {
      if (result === "AUTHORIZED") return;
      await finish(readPastedCallback(pasted, provider.expectedState).code);
    },
    cancel: async () => {
      await cleanup();
      settle.reject(new OAuthError("callback_failed", `OAuth login for "${options.server}" was cancelled`));
    },
  };
}

/** Error text without anything that looks like a token or code value. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/(code|token|secret|verifier|state)=([^&\s]+)/gi, "$1=…").slice(0, 300);
}
