/**
 * Logout: delete the local credentials first (so a slow or failing server
 * can never keep them alive), then ask the authorization server to revoke
 * the tokens (RFC 7009), giving up after a few seconds.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthError } from "../errors.js";
import type { CredentialStore } from "../stores/credential-store.js";

export interface LogoutOptions {
  store: CredentialStore;
  fetch?: FetchLike;
  /** Revocation budget (default 5 s). */
  timeoutMs?: number;
}

export interface LogoutResult {
  /** True when local credentials existed and were deleted. */
  deleted: boolean;
  /** `revoked` when the server confirmed; otherwise why revocation did not happen. */
  revocation: "revoked" | "not_supported" | "nothing_to_revoke" | "failed" | "timed_out";
}

interface RecordShape {
  tokens?: { access_token?: string; refresh_token?: string };
  client?: { client_id?: string; client_secret?: string };
  discovery?: { authorizationServerMetadata?: { revocation_endpoint?: string } };
}

export async function logoutMcpOAuth(server: string, options: LogoutOptions): Promise<LogoutResult> {
  const raw = await options.store.get(server);
  const deleted = await options.store.delete(server);
  if (raw === undefined) return { deleted, revocation: "nothing_to_revoke" };
  let record: RecordShape;
  try {
    record = JSON.parse(raw) as RecordShape;
  } catch {
    return { deleted, revocation: "failed" };
  }
  const endpoint = record.discovery?.authorizationServerMetadata?.revocation_endpoint;
  if (!endpoint) return { deleted, revocation: "not_supported" };
  const clientId = record.client?.client_id;
  const candidates: Array<[string, string]> = [];
  if (record.tokens?.refresh_token) candidates.push([record.tokens.refresh_token, "refresh_token"]);
  if (record.tokens?.access_token) candidates.push([record.tokens.access_token, "access_token"]);
  if (candidates.length === 0) return { deleted, revocation: "nothing_to_revoke" };

  const fetchFn = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 5000);
  try {
    let allOk = true;
    for (const [token, hint] of candidates) {
      const body = new URLSearchParams({ token, token_type_hint: hint });
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      if (clientId && record.client?.client_secret) {
        headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(record.client.client_secret)}`).toString("base64")}`;
      } else if (clientId) {
        body.set("client_id", clientId);
      }
      const response = await fetchFn(endpoint, { method: "POST", headers, body, signal });
      await response.body?.cancel();
      if (!response.ok) allOk = false;
    }
    return { deleted, revocation: allOk ? "revoked" : "failed" };
  } catch (error) {
    if (signal.aborted) return { deleted, revocation: "timed_out" };
    if (error instanceof OAuthError) throw error;
    return { deleted, revocation: "failed" };
  }
}
