/**
 * One-time import of what pi-mcp-adapter 2.x saved (its OAuth logins and
 * `/mcp token` bearer tokens, read by `v2-store-reader.ts`) into this
 * version's store, so an upgrade keeps the user's logins. Per server: only
 * when our store has nothing for it, only when 2.x's record was saved for the
 * same server URL (compared as ours are), and once — a marker in our store
 * records the outcome, so a later logout is not undone. 2.x's entries are
 * never written, changed or deleted. An expired access token comes along when
 * a refresh token does (the first connection refreshes it). Every outcome is
 * returned; `describeV2ImportOutcome` words the ones worth a line, naming the
 * server and never a secret.
 */
import type { CredentialStore } from "./credential-store.js";
import { ServerCredentials, type StoredTokens } from "./server-credentials.js";
import { normalizeServerUrl } from "./server-url.js";
import { bearerTokenAccount, bearerTokenValue, storeBearerToken } from "./stored-bearer-token.js";
import { V2_IMPORT_RETRY, v2ImportMarkerAccount } from "./v2-import-marker.js";
import {
  createV2StoreReader,
  type V2Entry,
  V2EntryUnreadable,
  type V2RecordKind,
  type V2StoreReader,
  V2StoreUnavailable,
} from "./v2-store-reader.js";

export type V2ImportSkipReason =
  /** 2.x saved nothing for this server (or only a client registration). */
  | "nothing_stored"
  /** An earlier session settled this server already. */
  | "already_imported"
  | "store_has_credentials"
  /** 2.x's record is for another URL (or names none); it is not sent anywhere. */
  | "url_mismatch"
  | "unreadable"
  /** The access token expired and there is no refresh token to renew it. */
  | "expired"
  /** 2.x's store could not be read now (no binding, no D-Bus, locked); tried again next session. */
  | "unavailable";

export type V2ImportOutcome = { server: string; kind: V2RecordKind } & (
  | { status: "imported"; from: V2Entry["from"] }
  | {
      status: "skipped";
      reason: V2ImportSkipReason;
      detail?: string;
      /** Not worth a line: said at an earlier start, or nothing shows 2.x saved anything here. */
      again?: true;
    }
);

export interface V2ImportOptions {
  /** The configured servers: `oauth` for OAuth servers, `bearer` for `bearerTokenStore` ones. */
  servers: Array<{ name: string; url: string; kind: V2RecordKind }>;
  store: CredentialStore;
  /** Where 2.x's records come from (default: its keyring and encrypted file, see `createV2StoreReader`). */
  reader?: V2StoreReader;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
}

type Parsed = { url?: string; expired?: boolean } & (
  | { kind: "oauth"; tokens?: StoredTokens; client?: Record<string, unknown> }
  | { kind: "bearer"; token: string }
);

export async function importV2Credentials(options: V2ImportOptions): Promise<V2ImportOutcome[]> {
  const reader = options.reader ?? createV2StoreReader({ env: options.env });
  const now = options.now ?? Date.now;
  const outcomes: V2ImportOutcome[] = [];
  for (const { name, url, kind } of options.servers) {
    const skip = (reason: V2ImportSkipReason, detail?: string, again?: true) =>
      outcomes.push({
        server: name,
        kind,
        status: "skipped",
        reason,
        ...(detail ? { detail } : {}),
        ...(again ? { again } : {}),
      });
    const marker = await options.store.get(v2ImportMarkerAccount(kind, name));
    if (marker !== undefined && marker !== V2_IMPORT_RETRY) {
      skip("already_imported");
      continue;
    }
    let entry: V2Entry | undefined;
    try {
      entry = await reader.read(kind, name);
    } catch (error) {
      if (error instanceof V2StoreUnavailable) {
        // Quiet when nothing shows 2.x saved anything here (no bus, no tool, a keyring that failed) or
        // it was said at an earlier start; tried again at the next start either way.
        const quiet = !error.found || marker === V2_IMPORT_RETRY;
        if (!quiet) await options.store.set(v2ImportMarkerAccount(kind, name), V2_IMPORT_RETRY);
        skip("unavailable", error.message, quiet || undefined);
      } else if (error instanceof V2EntryUnreadable)
        await settle(options, kind, name, skip, "unreadable", error.message);
      else throw error;
      continue;
    }
    const parsed = entry && parse(kind, entry.payload, now());
    if (!entry) {
      // A locked keyring also reads as empty: "nothing" is final only once a write to the same
      // keyring (the marker, in ours) shows it unlocked.
      if (options.store.kind === "keyring") await settle(options, kind, name, skip, "nothing_stored");
      else skip("nothing_stored");
    } else if (parsed === undefined) {
      await settle(options, kind, name, skip, "unreadable");
    } else if (await hasOwn(options.store, kind, name, url)) {
      await settle(options, kind, name, skip, "store_has_credentials");
    } else if (parsed.kind === "oauth" && !parsed.tokens) {
      await settle(options, kind, name, skip, "nothing_stored");
    } else if (!parsed.url || !sameUrl(parsed.url, url)) {
      await settle(
        options,
        kind,
        name,
        skip,
        "url_mismatch",
        parsed.url ? `2.x saved it for ${where(parsed.url)}` : undefined,
      );
    } else if (parsed.expired) {
      await settle(options, kind, name, skip, "expired");
    } else {
      if (parsed.kind === "bearer") await storeBearerToken(options.store, name, url, parsed.token, now);
      else await saveOAuth(options.store, name, url, parsed, now());
      await options.store.set(v2ImportMarkerAccount(kind, name), "imported");
      outcomes.push({ server: name, kind, status: "imported", from: entry.from });
    }
  }
  return outcomes;
}

/** A definitive skip: recorded, so it is reported once and 2.x is not read again for this server. */
async function settle(
  options: V2ImportOptions,
  kind: V2RecordKind,
  name: string,
  skip: (reason: V2ImportSkipReason, detail?: string) => void,
  reason: V2ImportSkipReason,
  detail?: string,
): Promise<void> {
  await options.store.set(v2ImportMarkerAccount(kind, name), reason);
  skip(reason, detail);
}

async function hasOwn(
  store: CredentialStore,
  kind: V2RecordKind,
  name: string,
  url: string,
): Promise<boolean> {
  if (kind === "bearer") return (await store.get(bearerTokenAccount(name))) !== undefined;
  return (await new ServerCredentials(store, name, url).load())?.tokens !== undefined;
}

function sameUrl(saved: string, configured: string): boolean {
  try {
    return normalizeServerUrl(saved) === normalizeServerUrl(configured);
  } catch {
    return false;
  }
}

/** A URL without its query or credentials (either may hold a key). */
function where(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return "a URL that does not parse";
  }
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const record = (value: unknown) =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/** 2.x's record in our shape; undefined when it is not what 2.x writes. */
function parse(kind: V2RecordKind, payload: string, nowMs: number): Parsed | undefined {
  let value: Record<string, unknown> | undefined;
  try {
    value = record(JSON.parse(payload));
  } catch {
    return undefined;
  }
  if (!value) return undefined;
  const url = text(value.serverUrl);
  if (kind === "bearer") {
    // Only what `storeBearerToken` accepts.
    const checked = bearerTokenValue(text(value.token) ?? "");
    return "value" in checked ? { kind, url, token: checked.value } : undefined;
  }
  const saved = record(value.tokens);
  const client = record(value.clientInfo);
  const accessToken = text(saved?.accessToken);
  if (saved && accessToken === undefined) return undefined;
  const clientId = text(client?.clientId);
  const parsed: Parsed = { kind, url };
  if (clientId && client?.configPreRegistered !== true) {
    // 2.x's camelCase client registration, in the SDK's names ours uses.
    parsed.client = Object.fromEntries(
      Object.entries({
        client_id: clientId,
        client_secret: text(client?.clientSecret),
        client_id_issued_at: num(client?.clientIdIssuedAt),
        client_secret_expires_at: num(client?.clientSecretExpiresAt),
        redirect_uris: Array.isArray(client?.redirectUris) ? client.redirectUris : undefined,
      }).filter(([, v]) => v !== undefined),
    );
  }
  if (saved && accessToken !== undefined) {
    // 2.x kept the expiry as epoch seconds; ours keeps a lifetime from `obtainedAt`.
    const expiresAt = num(saved.expiresAt);
    const refreshToken = text(saved.refreshToken);
    const lifetime = expiresAt === undefined ? undefined : Math.max(0, Math.floor(expiresAt - nowMs / 1000));
    parsed.expired = lifetime === 0 && refreshToken === undefined;
    parsed.tokens = Object.fromEntries(
      Object.entries({
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: lifetime,
        refresh_token: refreshToken,
        scope: text(saved.scope),
        issuer: text(saved.issuer),
      }).filter(([, v]) => v !== undefined),
    ) as StoredTokens;
  }
  return parsed;
}

async function saveOAuth(
  store: CredentialStore,
  name: string,
  url: string,
  parsed: Extract<Parsed, { kind: "oauth" }>,
  nowMs: number,
): Promise<void> {
  // A login that finished meanwhile (another session) is kept: returning `current` writes nothing.
  await new ServerCredentials(store, name, url).update((current) =>
    current.tokens
      ? current
      : {
          ...current,
          tokens: parsed.tokens,
          obtainedAt: nowMs,
          ...(parsed.client ? { client: parsed.client as { client_id: string } } : {}),
        },
  );
}

const KIND_WORDS: Record<V2RecordKind, { the: string; a: string }> = {
  oauth: { the: "the OAuth login", a: "an OAuth login" },
  bearer: { the: "the bearer token", a: "a bearer token" },
};
const REASON_WORDS: Partial<Record<V2ImportSkipReason, string>> = {
  url_mismatch: "it was saved for another URL, so it is not sent to this one",
  unreadable: "2.x's saved value is not readable",
  expired: "its access token expired and 2.x saved no refresh token",
};

/**
 * One line for an outcome the user should hear of (imported, or skipped for
 * a reason they may act on); undefined for the quiet ones. Names the server,
 * never a secret.
 */
export function describeV2ImportOutcome(outcome: V2ImportOutcome): string | undefined {
  const words = KIND_WORDS[outcome.kind];
  const saved = `pi-mcp-adapter 2.x saved for "${outcome.server}"`;
  const what = `${words.the} ${saved}`;
  if (outcome.status === "imported") return `Imported ${what} (from its ${outcome.from}).`;
  if (outcome.again) return undefined;
  if (outcome.reason === "unavailable") {
    return `Could not look for ${words.a} ${saved}: ${outcome.detail}. Each start looks again, without this notice.`;
  }
  const why = REASON_WORDS[outcome.reason];
  if (!why) return undefined;
  return `Did not import ${what}: ${why}${outcome.detail ? ` (${outcome.detail})` : ""}.`;
}
