/**
 * What is stored per server, and the URL binding: one record per configured
 * server name, stamped with the server URL it was obtained for. A record
 * read for any other URL is treated as absent, so a token is never sent to
 * a server it was not issued for; the next save for the new URL replaces it.
 *
 * Every read-modify-write of a record is exclusive across processes too: a
 * queue per store and server inside this process, plus core's file lock on
 * the store's `lockTarget` for that server, so two Pi sessions sharing a
 * store never overwrite each other's changes (a rotated refresh token above
 * all; see `refresh-coordinator.ts`).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { withFileLock } from "@pi-mcp-adapter/core";
import { z } from "zod";
import { OAuthError } from "../errors.js";
import type { CredentialStore } from "./credential-store.js";
import { normalizeServerUrl } from "./server-url.js";

export const StoredTokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  id_token: z.string().optional(),
  issuer: z.string().optional(),
});
export type StoredTokens = z.infer<typeof StoredTokensSchema>;

export const StoredCredentialsSchema = z.object({
  version: z.literal(1),
  server: z.string(),
  url: z.string(),
  tokens: StoredTokensSchema.optional(),
  /** Epoch ms when `tokens` were saved; with `expires_in` gives the expiry. */
  obtainedAt: z.number().optional(),
  /** Client registration (may hold a client secret; never leaves this package's API). */
  client: z.looseObject({ client_id: z.string() }).optional(),
  /** The DPoP private key (JWK) the tokens are bound to, for servers using DPoP. */
  dpopKey: z.record(z.string(), z.unknown()).optional(),
  /** Cached discovery results so refresh works without rediscovery. */
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
});
export type StoredCredentials = z.infer<typeof StoredCredentialsSchema>;

const writeQueues = new WeakMap<CredentialStore, Map<string, Promise<unknown>>>();
/** The records the current async call chain holds, so a nested `exclusive` runs at once instead of waiting on itself. */
const holding = new AsyncLocalStorage<ReadonlySet<string>>();
const heldIds = new WeakMap<CredentialStore, number>();
let nextStoreId = 0;

/** Reads and writes one server's record, enforcing the URL binding. */
export class ServerCredentials {
  readonly url: string;

  constructor(
    readonly store: CredentialStore,
    readonly server: string,
    url: string | URL,
  ) {
    if (!server) throw new OAuthError("invalid_input", "An OAuth server name must not be empty");
    this.url = normalizeServerUrl(url);
  }

  /** The record for this server, or `undefined` when none is stored for this exact URL. */
  async load(): Promise<StoredCredentials | undefined> {
    const raw = await this.store.get(this.server);
    if (raw === undefined) return undefined;
    let parsed: StoredCredentials;
    try {
      parsed = StoredCredentialsSchema.parse(JSON.parse(raw));
    } catch {
      // Do not echo the value: it may hold tokens.
      throw new OAuthError(
        "file_corrupt",
        `Stored OAuth credentials for "${this.server}" (${this.store.kind} store) are unreadable; log out and log in again`,
      );
    }
    if (parsed.server !== this.server || parsed.url !== this.url) return undefined;
    return parsed;
  }

  /**
   * Runs `fn` holding this server's record exclusively (this process and,
   * where the store has a `lockTarget`, every other process). `fn` reads and
   * writes through `held`, which must not be used after `fn` settles.
   */
  exclusive<T>(fn: (held: HeldCredentials) => Promise<T>): Promise<T> {
    const queues = writeQueues.get(this.store) ?? new Map<string, Promise<unknown>>();
    writeQueues.set(this.store, queues);
    const previous = queues.get(this.server) ?? Promise.resolve();
    const held: HeldCredentials = {
      load: () => this.load(),
      update: async (change) => {
        const current = (await this.load()) ?? { version: 1 as const, server: this.server, url: this.url };
        const updated = change(current);
        // A change that keeps the record as it is (returns it) writes nothing.
        if (updated !== current) await this.store.set(this.server, JSON.stringify(updated));
        return updated;
      },
    };
    // A call made from inside a hold of the same record (say, a DPoP key saved while a refresh
    // holds it) runs at once instead of waiting on itself.
    const id = this.holdId();
    const outer = holding.getStore();
    if (outer?.has(id)) return fn(held);
    const inside = () => holding.run(new Set([...(outer ?? []), id]), () => fn(held));
    const target = this.store.lockTarget?.(this.server);
    const next = previous
      .catch(() => {})
      .then(() => (target ? withFileLock(target, inside, { timeoutMs: 30_000 }) : inside()));
    queues.set(this.server, next);
    return next;
  }

  private holdId(): string {
    let store = heldIds.get(this.store);
    if (store === undefined) {
      store = nextStoreId++;
      heldIds.set(this.store, store);
    }
    return `${store}\n${this.server}`;
  }

  /** Read-modify-write under `exclusive`: the change is applied to what is stored now. */
  update(change: (current: StoredCredentials) => StoredCredentials): Promise<StoredCredentials> {
    return this.exclusive((held) => held.update(change));
  }

  async saveTokens(tokens: StoredTokens, now: number): Promise<void> {
    const checked = StoredTokensSchema.parse(tokens);
    await this.update((current) => ({ ...current, tokens: checked, obtainedAt: now }));
  }

  /** Deletes this server's record whatever URL it is bound to. */
  async remove(): Promise<boolean> {
    return this.store.delete(this.server);
  }
}

/** A record held by `ServerCredentials.exclusive`. */
export interface HeldCredentials {
  load(): Promise<StoredCredentials | undefined>;
  update(change: (current: StoredCredentials) => StoredCredentials): Promise<StoredCredentials>;
}

/** Expiry in epoch ms, or undefined when the server gave no lifetime. */
export function tokenExpiresAt(record: Pick<StoredCredentials, "tokens" | "obtainedAt">): number | undefined {
  if (record.tokens?.expires_in === undefined || record.obtainedAt === undefined) return undefined;
  return record.obtainedAt + record.tokens.expires_in * 1000;
}
