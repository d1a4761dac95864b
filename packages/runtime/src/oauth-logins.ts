/**
 * OAuth logins for the adapter's HTTP servers, independent of Pi: one
 * pending login per server (a loopback listener plus the paste flow), the
 * connection-side provider the transport uses, logout and status. `/mcp-auth`
 * and the proxy actions `auth-start` / `auth-complete` both drive this.
 */

import {
  type CredentialStore,
  createDpopFetch,
  getMcpOAuthStatus,
  type LogoutResult,
  loadOrCreateDpopKey,
  logoutMcpOAuth,
  McpOAuthProvider,
  type McpOAuthStatus,
  OAuthError,
  type OAuthLogin,
  startOAuthLogin,
  type TokenEndpointAuthMethod,
} from "@pi-mcp-adapter/oauth";
import type { FetchLike } from "@pi-mcp-adapter/transport";

/** What the adapter knows about one OAuth-capable server (secrets already resolved). */
export interface OAuthServerEntry {
  name: string;
  url: string;
  clientName?: string;
  clientId?: string;
  clientSecret?: string;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  scope?: string;
  skipIssuerMetadataValidation?: boolean;
  /** Fixed loopback port (0 or unset: a free port per login). */
  callbackPort?: number;
  /** Bind tokens to a key with DPoP (RFC 9449); fails closed if the server cannot. */
  dpop?: boolean;
}

export interface OAuthLoginsOptions {
  store: CredentialStore;
  /** The configured OAuth-capable servers (secrets resolved), read on each call so reloads apply. */
  servers: () => OAuthServerEntry[] | Promise<OAuthServerEntry[]>;
  fetch?: FetchLike;
  warn?: (message: string) => void;
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

  private providerOptions(entry: OAuthServerEntry) {
    return {
      server: entry.name,
      url: entry.url,
      store: this.options.store,
      clientName: entry.clientName,
      clientId: entry.clientId,
      clientSecret: entry.clientSecret,
      tokenEndpointAuthMethod: entry.tokenEndpointAuthMethod,
      scope: entry.scope,
      skipIssuerMetadataValidation: entry.skipIssuerMetadataValidation,
      warn: this.options.warn,
    };
  }

  private fetchFor(entry: OAuthServerEntry): FetchLike | undefined {
    if (!entry.dpop) return this.options.fetch;
    const provider = new McpOAuthProvider(this.providerOptions(entry));
    return createDpopFetch({
      key: () => loadOrCreateDpopKey(provider.credentials),
      fetch: this.options.fetch,
    });
  }

  /**
   * What a connection to `name` needs: the provider (stored tokens and
   * refresh, never a login by itself) and, with DPoP, the signing fetch.
   */
  async connectionFor(
    name: string,
  ): Promise<{ authProvider: McpOAuthProvider; fetch: FetchLike | undefined }> {
    const entry = await this.entry(name);
    return { authProvider: new McpOAuthProvider(this.providerOptions(entry)), fetch: this.fetchFor(entry) };
  }

  /** Starts (or restarts) a login; `authorized` when stored or refreshed tokens already work. */
  async start(name: string): Promise<AuthStartResult> {
    const entry = await this.entry(name);
    await this.cancel(name);
    const login = await startOAuthLogin({
      ...this.providerOptions(entry),
      callbackPort: entry.callbackPort,
      fetch: this.fetchFor(entry),
    });
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
