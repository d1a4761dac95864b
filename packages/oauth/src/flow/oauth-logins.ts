/**
 * OAuth logins for the adapter's HTTP servers, independent of Pi: one
 * pending login per server (a loopback listener plus the paste flow),
 * logout and status. `/mcp-auth` and the proxy actions `auth-start` /
 * `auth-complete` both drive this; connections get their provider from
 * `createServerOAuth`, built from the same server entry.
 */
import { OAuthError } from "../errors.js";
import { type LogoutResult, logoutMcpOAuth } from "../tokens/logout.js";
import { getMcpOAuthStatus, type McpOAuthStatus } from "../tokens/token-api.js";
import { type OAuthLogin, startOAuthLogin } from "./oauth-login.js";
import {
  createServerOAuth,
  type OAuthServerEntry,
  type ServerOAuthContext,
  serverProviderOptions,
} from "./server-oauth.js";

export interface OAuthLoginsOptions extends ServerOAuthContext {
  /** The configured OAuth-capable servers, read on each call so reloads apply. */
  servers: () => OAuthServerEntry[] | Promise<OAuthServerEntry[]>;
}

export type AuthStartResult =
  | { status: "authorized"; server: string }
  | { status: "pending"; server: string; authorizationUrl: string; redirectUrl: string; done: Promise<void> };

export class OAuthLogins {
  private readonly pending = new Map<string, OAuthLogin>();

  constructor(private readonly options: OAuthLoginsOptions) {}

  private async entry(name: string): Promise<OAuthServerEntry> {
    const servers = await this.options.servers();
    const entry = servers.find((s) => s.name === name);
    if (!entry) {
      const known = servers.map((s) => s.name).join(", ");
      throw new OAuthError(
        "invalid_input",
        `No HTTP MCP server named "${name}" is configured${known ? ` (known: ${known})` : ""}`,
      );
    }
    return entry;
  }

  /**
   * Starts (or restarts) a login; `authorized` when stored or refreshed tokens
   * already work. The server's latest challenge (from `challenges`) decides
   * the scope: a 403 for more scope asks for it on top of what was granted.
   * A credential store that cannot hold the result fails here, before any
   * authorization URL exists.
   */
  async start(name: string): Promise<AuthStartResult> {
    const entry = await this.entry(name);
    await this.cancel(name);
    const challenge = this.options.challenges?.get(name);
    const login = await startOAuthLogin({
      ...serverProviderOptions(entry, this.options),
      callbackPort: entry.callbackPort,
      fixedRedirectUrl: entry.redirectUri,
      fetch: createServerOAuth(entry, this.options).fetch,
      ...(challenge ? { challenge } : {}),
    });
    // Answered: the next login starts from what is granted then.
    login.done.then(
      () => {
        if (this.options.challenges?.get(name) === challenge) this.options.challenges?.clear(name);
      },
      () => {},
    );
    if (login.status === "authorized" || !login.authorizationUrl || !login.redirectUrl) {
      return { status: "authorized", server: name };
    }
    this.pending.set(name, login);
    const forget = () => {
      if (this.pending.get(name) === login) this.pending.delete(name);
    };
    login.done.then(forget, forget);
    return {
      status: "pending",
      server: name,
      authorizationUrl: login.authorizationUrl.href,
      redirectUrl: login.redirectUrl,
      done: login.done,
    };
  }

  isPending(name: string): boolean {
    return this.pending.has(name);
  }

  /** Finishes a pending login with the pasted callback address or the bare code. */
  async complete(name: string, input: { redirectUrl?: string; code?: string }): Promise<void> {
    const login = this.pending.get(name);
    if (!login) {
      throw new OAuthError(
        "callback_failed",
        `No OAuth login for "${name}" is in progress: start one with /mcp-auth ${name} or the auth-start action`,
      );
    }
    const pasted = input.redirectUrl ?? input.code;
    if (!pasted) {
      throw new OAuthError(
        "invalid_input",
        "auth-complete needs args.redirectUrl (the callback address) or args.code",
      );
    }
    await login.complete(pasted);
  }

  async cancel(name: string): Promise<void> {
    const login = this.pending.get(name);
    this.pending.delete(name);
    await login?.cancel();
  }

  /** Deletes the stored credentials first, then tries revocation (at most 5 s). */
  async logout(name: string): Promise<LogoutResult> {
    await this.cancel(name);
    return logoutMcpOAuth(name, { store: this.options.store, fetch: this.options.fetch });
  }

  async status(name: string): Promise<McpOAuthStatus> {
    const entry = await this.entry(name);
    return getMcpOAuthStatus(entry.name, entry.url, { store: this.options.store });
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.pending.keys()].map((name) => this.cancel(name)));
  }
}

/** Text for the model after `auth-start`: where to send the user and how to finish. */
export function authStartMessage(result: AuthStartResult): string {
  if (result.status === "authorized") return `"${result.server}" is already authorized; no login is needed.`;
  return [
    `Ask the user to open this URL and approve access for "${result.server}":`,
    result.authorizationUrl,
    `If the browser cannot reach ${result.redirectUrl}, the user copies the full address the browser ends on ` +
      `and you call mcp({ action: "auth-complete", server: "${result.server}", args: { redirectUrl: "<that address>" } }) ` +
      `(or args: { code }). When the browser reaches it, the login finishes by itself.`,
  ].join("\n");
}
