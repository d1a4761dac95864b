/**
 * Refreshing tokens when several processes share one credential store. An
 * authorization server that rotates refresh tokens accepts each one once:
 * when two Pi sessions refresh with the same token, one gets `invalid_grant`,
 * and the SDK then deletes the stored tokens — the other session's fresh
 * ones included — so both must log in again.
 *
 * So every refresh happens while holding the server's record
 * (`ServerCredentials.exclusive`: this process and, through the store's lock
 * file, every other one). After taking the hold the record is read again:
 * when another process has already rotated the refresh token, its live
 * access token is the answer (no second refresh), or, if that has expired
 * too, the newest refresh token is the one sent. The same holds when the
 * stored access token is no longer the one the server just rejected on this
 * connection (the SDK reads the store again after a 401 and would otherwise
 * refresh the other process's new tokens once more). A fresh answer is saved
 * before the hold is released, so the next waiter sees it.
 *
 * The SDK refreshes by itself after a 401 and reaches the token endpoint
 * through the connection's fetch, so this module is a fetch wrapper: only
 * `grant_type=refresh_token` requests are touched; everything else passes
 * straight through.
 *
 * The SDK then saves the answer itself (`saveTokens`, or the token API's own
 * save), after the hold is released: by then another process may have
 * rotated again, and writing the answer would put a spent refresh token back
 * (the next process gets `invalid_grant` and the login is lost). So the
 * coordinator remembers, per record, each answer it stored and the refresh
 * token it came from; `isSupersededAnswer` tells a late save to leave a
 * newer rotation alone, and `refusedRefreshToken` names the token a
 * `invalid_grant` was really about, so only that one is ever deleted.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import {
  type ServerCredentials,
  type StoredCredentials,
  tokenExpiresAt,
} from "../stores/server-credentials.js";

/** A stored access token closer than this to its expiry is refreshed rather than shared. */
const SHARE_MARGIN_MS = 30_000;
/** Answers remembered per record: a late save comes within one refresh, so a few suffice. */
const REMEMBERED_ANSWERS = 16;

interface Ledger {
  /** Access token of an answer this coordinator stored (or took from the store) → the refresh token it came from. */
  answers: Map<string, string>;
  /** The refresh token the authorization server last refused with `invalid_grant`. */
  refused?: string;
}
const ledgers = new WeakMap<ServerCredentials, Ledger>();

function ledgerOf(credentials: ServerCredentials): Ledger {
  let ledger = ledgers.get(credentials);
  if (!ledger) {
    ledger = { answers: new Map() };
    ledgers.set(credentials, ledger);
  }
  return ledger;
}

function rememberAnswer(credentials: ServerCredentials, accessToken: string, from: string): void {
  const { answers } = ledgerOf(credentials);
  answers.set(accessToken, from);
  const oldest = answers.keys().next().value;
  if (answers.size > REMEMBERED_ANSWERS && oldest !== undefined) answers.delete(oldest);
}

/**
 * True when `tokens` are a refresh answer this coordinator already stored
 * and the record has moved on since (its refresh token is neither the one
 * they were refreshed from nor their own): saving them would put an older
 * rotation back over a newer one.
 */
export function isSupersededAnswer(
  credentials: ServerCredentials,
  current: StoredCredentials,
  tokens: { access_token: string; refresh_token?: string },
): boolean {
  const from = ledgers.get(credentials)?.answers.get(tokens.access_token);
  const stored = current.tokens?.refresh_token;
  if (from === undefined || stored === undefined) return false;
  return stored !== from && stored !== (tokens.refresh_token ?? from);
}

/** The refresh token the authorization server last refused for `credentials` through this coordinator. */
export function refusedRefreshToken(credentials: ServerCredentials): string | undefined {
  return ledgers.get(credentials)?.refused;
}

const TokenAnswerSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

/** Wraps `fetch` (default: the global one) so refreshes of `credentials` are coordinated as above. */
export function coordinateRefresh(
  credentials: ServerCredentials,
  fetch: FetchLike | undefined,
  now: () => number = Date.now,
): FetchLike {
  const send: FetchLike = fetch ?? ((url, init) => globalThis.fetch(url, init));
  let rejectedAccessToken: string | undefined;
  return async (url, init) => {
    const params = refreshGrantOf(init);
    const presented = params?.get("refresh_token");
    if (!params || !presented) {
      const response = await send(url, init);
      if (response.status === 401) rejectedAccessToken = accessTokenOf(init) ?? rejectedAccessToken;
      return response;
    }
    return credentials.exclusive(async (held) => {
      const rejected = rejectedAccessToken;
      rejectedAccessToken = undefined;
      const current = await held.load();
      const stored = current?.tokens?.refresh_token;
      let request = init;
      let sent = presented;
      const rotated = stored !== undefined && stored !== presented;
      const replaced = rejected !== undefined && current?.tokens?.access_token !== rejected;
      if (current?.tokens && stored && (rotated || replaced)) {
        // Another process (or connection) refreshed first.
        const expiresAt = tokenExpiresAt(current);
        if (expiresAt === undefined || expiresAt - SHARE_MARGIN_MS > now()) {
          rememberAnswer(credentials, current.tokens.access_token, stored);
          return answerWith(current, now());
        }
        params.set("refresh_token", stored);
        request = { ...init, body: params };
        sent = stored;
      }
      const response = await send(url, request);
      if (!response.ok) {
        if (await isInvalidGrant(response)) ledgerOf(credentials).refused = sent;
        return response;
      }
      const answer = TokenAnswerSchema.safeParse(
        await response
          .clone()
          .json()
          .catch(() => undefined),
      );
      if (answer.success) {
        await held.update((record) => ({
          ...record,
          tokens: {
            ...answer.data,
            refresh_token: answer.data.refresh_token ?? sent,
            ...(record.tokens?.issuer ? { issuer: record.tokens.issuer } : {}),
          },
          obtainedAt: now(),
        }));
        rememberAnswer(credentials, answer.data.access_token, sent);
        ledgerOf(credentials).refused = undefined;
      }
      return response;
    });
  };
}

/** The parameters of a `refresh_token` grant request (a copy), or undefined for any other request. */
function refreshGrantOf(init: RequestInit | undefined): URLSearchParams | undefined {
  if (init?.method?.toUpperCase() !== "POST") return undefined;
  const body = init.body;
  const params =
    body instanceof URLSearchParams
      ? new URLSearchParams(body)
      : typeof body === "string"
        ? new URLSearchParams(body)
        : undefined;
  return params?.get("grant_type") === "refresh_token" ? params : undefined;
}

async function isInvalidGrant(response: Response): Promise<boolean> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === "invalid_grant";
}

/** The token an MCP request presented (`Bearer` or `DPoP` scheme). */
function accessTokenOf(init: RequestInit | undefined): string | undefined {
  const header = new Headers(init?.headers).get("authorization");
  const match = header?.match(/^(?:Bearer|DPoP)\s+(\S+)$/i);
  return match?.[1];
}

/** A token endpoint answer carrying the stored tokens, as if the refresh had produced them. */
function answerWith(record: StoredCredentials, now: number): Response {
  const tokens = record.tokens as NonNullable<StoredCredentials["tokens"]>;
  const expiresAt = tokenExpiresAt(record);
  const { issuer: _issuer, ...answer } = tokens;
  return new Response(
    JSON.stringify({
      ...answer,
      ...(expiresAt !== undefined ? { expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) } : {}),
    }),
    { status: 200, headers: { "content-type": "application/json", "cache-control": "no-store" } },
  );
}
