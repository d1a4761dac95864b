/**
 * The token API other extensions use (`pi-mcp-adapter/oauth`): read the
 * URL-bound access token for a configured server (refreshing it first when
 * it is about to expire), store tokens obtained elsewhere, and report a
 * secret-free status. It never returns client registrations, client secrets,
 * PKCE verifiers or OAuth state.
 */
import type { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import { OAuthError } from "../errors.js";
import type { CredentialStore, CredentialStoreKind } from "../stores/credential-store.js";
import { getDefaultCredentialStore } from "../stores/default-store.js";
import { ServerCredentials, type StoredCredentials, tokenExpiresAt } from "../stores/server-credentials.js";
import { coordinateRefresh, isSupersededAnswer } from "./refresh-coordinator.js";
import { loadSdkAuth } from "./sdk-auth.js";

/** Tokens as handed to and accepted from other extensions. */
export const McpOAuthTokensSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().default("Bearer"),
  expires_in: z.number().nonnegative().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});
export type McpOAuthTokens = z.infer<typeof McpOAuthTokensSchema>;

export interface McpOAuthStatus {
  server: string;
  url: string;
  store: CredentialStoreKind;
  /** True when an access token is stored for this server and URL. */
  authenticated: boolean;
  /** Epoch ms, when the server gave a lifetime. */
  expiresAt?: number;
  expired: boolean;
  canRefresh: boolean;
  scope?: string;
}

export interface TokenApiOptions {
  /** Defaults to the adapter's configured store (`default-store.ts`), else the OS keyring. */
  store?: CredentialStore;
  fetch?: FetchLike;
  now?: () => number;
  /** Refresh this long before expiry (default 60 s). */
  refreshSkewMs?: number;
}

function publicTokens(record: StoredCredentials, now: number): McpOAuthTokens | undefined {
  if (!record.tokens) return undefined;
  const expiresAt = tokenExpiresAt(record);
  return {
    access_token: record.tokens.access_token,
    token_type: record.tokens.token_type,
    ...(expiresAt !== undefined ? { expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) } : {}),
    ...(record.tokens.refresh_token ? { refresh_token: record.tokens.refresh_token } : {}),
    ...(record.tokens.scope ? { scope: record.tokens.scope } : {}),
  };
}

async function refreshRecord(
  credentials: ServerCredentials,
  record: StoredCredentials,
  options: TokenApiOptions,
  now: number,
): Promise<StoredCredentials | undefined> {
  const refreshToken = record.tokens?.refresh_token;
  if (!refreshToken || !record.discovery || !record.client) return undefined;
  const discovery = record.discovery as {
    authorizationServerUrl: string;
    authorizationServerMetadata?: Parameters<typeof refreshAuthorization>[1]["metadata"];
    resourceMetadata?: { resource?: string };
  };
  try {
    const { refreshAuthorization } = await loadSdkAuth();
    const tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
      metadata: discovery.authorizationServerMetadata,
      clientInformation: record.client as OAuthClientInformationMixed,
      refreshToken,
      resource: discovery.resourceMetadata?.resource,
      // Under the record's cross-process hold: a refresh another process already made is reused.
      fetchFn: coordinateRefresh(credentials, options.fetch, () => now),
    });
    // Another process may have rotated again since the coordinator stored this answer: the
    // newer record is kept, and its tokens are the ones returned.
    return await credentials.update((current) =>
      isSupersededAnswer(credentials, current, tokens)
        ? current
        : {
            ...current,
            tokens: {
              ...tokens,
              refresh_token: tokens.refresh_token ?? refreshToken,
              issuer: current.tokens?.issuer ?? discovery.authorizationServerUrl,
            },
            obtainedAt: now,
          },
    );
  } catch (error) {
    if (error instanceof OAuthError) throw error; // store failures stay visible
    return undefined;
  }
}

/**
 * The access token for `server` at `url`, refreshed first when it expires
 * within `refreshSkewMs`. `undefined` when nothing usable is stored for this
 * exact URL (a token stored for another URL is never returned).
 * Throws `OAuthError` when the credential store fails (locked, unreachable, wrong key).
 */
export async function getMcpOAuthTokensForUrl(
  server: string,
  url: string | URL,
  options: TokenApiOptions = {},
): Promise<McpOAuthTokens | undefined> {
  const credentials = new ServerCredentials(options.store ?? getDefaultCredentialStore(), server, url);
  const now = (options.now ?? Date.now)();
  let record = await credentials.load();
  if (!record?.tokens) return undefined;
  const expiresAt = tokenExpiresAt(record);
  if (expiresAt !== undefined && expiresAt - (options.refreshSkewMs ?? 60_000) <= now) {
    const refreshed = await refreshRecord(credentials, record, options, now);
    if (refreshed) record = refreshed;
    else if (expiresAt <= now) return undefined;
  }
  return publicTokens(record, now);
}

/** Stores tokens for `server`, bound to `url` (replacing anything bound to another URL). */
export async function updateMcpOAuthTokensForUrl(
  server: string,
  url: string | URL,
  tokens: McpOAuthTokens,
  options: TokenApiOptions = {},
): Promise<void> {
  const parsed = McpOAuthTokensSchema.safeParse(tokens);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join(".") || "tokens";
    throw new OAuthError(
      "invalid_input",
      `updateMcpOAuthTokensForUrl("${server}"): invalid tokens, check field "${field}"`,
    );
  }
  const credentials = new ServerCredentials(options.store ?? getDefaultCredentialStore(), server, url);
  await credentials.saveTokens(parsed.data, (options.now ?? Date.now)());
}

/** What is stored for `server` at `url`, without any secret. */
export async function getMcpOAuthStatus(
  server: string,
  url: string | URL,
  options: TokenApiOptions = {},
): Promise<McpOAuthStatus> {
  const store = options.store ?? getDefaultCredentialStore();
  const credentials = new ServerCredentials(store, server, url);
  const record = await credentials.load();
  const now = (options.now ?? Date.now)();
  const expiresAt = record ? tokenExpiresAt(record) : undefined;
  return {
    server,
    url: credentials.url,
    store: store.kind,
    authenticated: record?.tokens !== undefined,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    expired: expiresAt !== undefined && expiresAt <= now,
    canRefresh: Boolean(record?.tokens?.refresh_token && record.discovery && record.client),
    ...(record?.tokens?.scope ? { scope: record.tokens.scope } : {}),
  };
}
