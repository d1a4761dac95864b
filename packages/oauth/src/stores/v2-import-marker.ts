/**
 * The marker the one-time import of pi-mcp-adapter 2.x's saved credentials
 * leaves per server in our store (its value: the outcome), and the check a
 * session start makes with the store alone — no login code, no keyring
 * binding of 2.x — to learn whether any server still waits for the import.
 */
import type { CredentialStore } from "./credential-store.js";

export type V2RecordKind = "oauth" | "bearer";

export const v2ImportMarkerAccount = (kind: V2RecordKind, server: string) => `v2-import:${kind}:${server}`;

/** The marker of a server whose 2.x store could not be read: reported once, tried again at each start. */
export const V2_IMPORT_RETRY = "unavailable";

/** The servers whose 2.x credentials are not settled yet (no marker in `store`, or a retry marker). */
export async function pendingV2Imports<T extends { name: string; kind: V2RecordKind }>(
  store: CredentialStore,
  servers: T[],
): Promise<T[]> {
  const pending: T[] = [];
  for (const server of servers) {
    const marker = await store.get(v2ImportMarkerAccount(server.kind, server.name));
    if (marker === undefined || marker === V2_IMPORT_RETRY) pending.push(server);
  }
  return pending;
}
