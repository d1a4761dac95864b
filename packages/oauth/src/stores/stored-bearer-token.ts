/**
 * Static bearer tokens kept in the credential store (`bearerTokenStore: true`,
 * carried over from pi-mcp-adapter 2.x), set with `pi-mcp-adapter token set
 * <server>`. One record per server name, stamped with the server URL it was
 * stored for: read for any other URL it is refused, never sent. The token
 * leaves this module only through `readStoredBearerToken`; status and
 * messages show a masked form.
 */
import { OAuthError } from "../errors.js";
import type { CredentialStore } from "./credential-store.js";
import { normalizeServerUrl } from "./server-url.js";
import type { StoredBearerToken } from "./stored-bearer-token-schema.js";

/** Store account of a server's bearer token (OAuth records use the bare server name). */
export function bearerTokenAccount(server: string): string {
  return `bearer-token:${server}`;
}

export interface StoredBearerTokenStatus {
  server: string;
  /** The URL the token was stored for; undefined when none is stored. */
  url?: string;
  /** `****` and the last four characters (long tokens only). */
  masked?: string;
  storedAt?: number;
}

/** Shows a token without giving it away: its last four characters only when it is long. */
export function maskBearerToken(token: string): string {
  return token.length >= 16 ? `****${token.slice(-4)}` : "****";
}

/** The token as it is stored (trimmed), or why it cannot be: blank, or more than one line. */
export function bearerTokenValue(token: string): { value: string } | { problem: "empty" | "lines" } {
  const value = token.trim();
  if (!value) return { problem: "empty" };
  return /[\r\n]/.test(value) ? { problem: "lines" } : { value };
}

export async function storeBearerToken(
  store: CredentialStore,
  server: string,
  url: string,
  token: string,
  now: () => number = Date.now,
): Promise<void> {
  const checked = bearerTokenValue(token);
  if ("problem" in checked) {
    throw new OAuthError(
      "invalid_input",
      checked.problem === "empty"
        ? `No token given for "${server}": the input was empty`
        : `The token for "${server}" must be one line`,
    );
  }
  const { value } = checked;
  const record: StoredBearerToken = {
    version: 1,
    server,
    url: normalizeServerUrl(url),
    token: value,
    storedAt: now(),
  };
  await store.set(bearerTokenAccount(server), JSON.stringify(record));
}

async function load(store: CredentialStore, server: string): Promise<StoredBearerToken | undefined> {
  const raw = await store.get(bearerTokenAccount(server));
  if (raw === undefined) return undefined;
  // The record's schema (and zod) loads when a record is first read, not with the store.
  const { StoredBearerTokenSchema } = await import("./stored-bearer-token-schema.js");
  try {
    return StoredBearerTokenSchema.parse(JSON.parse(raw));
  } catch {
    // Never echo the value: it holds the token.
    throw new OAuthError(
      "file_corrupt",
      `The stored bearer token for "${server}" (${store.kind} store) is unreadable; run "pi-mcp-adapter token set ${server}" again`,
    );
  }
}

/**
 * The token to send to `url`. Throws an `OAuthError` saying what to do when
 * none is stored, or when it was stored for another URL.
 */
export async function readStoredBearerToken(
  store: CredentialStore,
  server: string,
  url: string,
): Promise<string> {
  const record = await load(store, server);
  const hint = `run "pi-mcp-adapter token set ${server}"`;
  if (!record) {
    throw new OAuthError(
      "not_authorized",
      `MCP server "${server}" uses bearerTokenStore, but no token is stored for it (${store.kind} store); ${hint}`,
    );
  }
  if (record.url !== normalizeServerUrl(url)) {
    throw new OAuthError(
      "not_authorized",
      `The stored bearer token for "${server}" was stored for ${record.url}, not ${normalizeServerUrl(url)}; it is not sent. To use it here, ${hint}`,
    );
  }
  return record.token;
}

export async function storedBearerTokenStatus(
  store: CredentialStore,
  server: string,
): Promise<StoredBearerTokenStatus> {
  const record = await load(store, server);
  if (!record) return { server };
  return { server, url: record.url, masked: maskBearerToken(record.token), storedAt: record.storedAt };
}

/** True when a token was stored and is now deleted. */
export function clearStoredBearerToken(store: CredentialStore, server: string): Promise<boolean> {
  return store.delete(bearerTokenAccount(server));
}
