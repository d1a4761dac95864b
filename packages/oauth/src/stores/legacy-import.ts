/**
 * One-time import of legacy plaintext `tokens.json` files
 * (`settings.oauthDir` / `MCP_OAUTH_DIR`, one `<dir>/<server>/tokens.json`
 * per server) into the configured secure store. Legacy files are read, never
 * written or deleted; a marker in the store records the import so a later
 * logout is not undone by importing the same file again.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { CredentialStore } from "./credential-store.js";
import { ServerCredentials } from "./server-credentials.js";
import { normalizeServerUrl } from "./server-url.js";

const LegacyTokensSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().default("Bearer"),
  refresh_token: z.string().optional(),
  expires_in: z.number().optional(),
  scope: z.string().optional(),
  /** Some legacy files name the URL they belong to. */
  serverUrl: z.string().optional(),
  url: z.string().optional(),
});

export type LegacyImportOutcome =
  | { server: string; status: "imported" }
  | {
      server: string;
      status: "skipped";
      reason: "no_file" | "already_imported" | "store_has_credentials" | "url_mismatch" | "unreadable";
    };

export interface LegacyImportOptions {
  /** The legacy directory (`settings.oauthDir` or `MCP_OAUTH_DIR`). */
  dir: string;
  servers: Array<{ name: string; url: string }>;
  store: CredentialStore;
  now?: () => number;
}

const markerAccount = (server: string) => `legacy-import:${server}`;

export async function importLegacyTokens(options: LegacyImportOptions): Promise<LegacyImportOutcome[]> {
  const outcomes: LegacyImportOutcome[] = [];
  for (const { name, url } of options.servers) {
    const file = path.join(options.dir, name, "tokens.json");
    let raw: string;
    try {
      raw = await readFile(file, "utf8");
    } catch {
      outcomes.push({ server: name, status: "skipped", reason: "no_file" });
      continue;
    }
    const fingerprint = createHash("sha256").update(raw).digest("hex");
    if ((await options.store.get(markerAccount(name))) === fingerprint) {
      outcomes.push({ server: name, status: "skipped", reason: "already_imported" });
      continue;
    }
    let tokens: z.infer<typeof LegacyTokensSchema>;
    try {
      tokens = LegacyTokensSchema.parse(JSON.parse(raw));
    } catch {
      outcomes.push({ server: name, status: "skipped", reason: "unreadable" });
      continue;
    }
    const credentials = new ServerCredentials(options.store, name, url);
    const boundTo = tokens.serverUrl ?? tokens.url;
    if (boundTo !== undefined && normalizeServerUrl(boundTo) !== credentials.url) {
      outcomes.push({ server: name, status: "skipped", reason: "url_mismatch" });
      continue;
    }
    if ((await credentials.load())?.tokens) {
      outcomes.push({ server: name, status: "skipped", reason: "store_has_credentials" });
    } else {
      const { access_token, token_type, refresh_token, expires_in, scope } = tokens;
      await credentials.saveTokens(
        { access_token, token_type, refresh_token, expires_in, scope },
        (options.now ?? Date.now)(),
      );
      outcomes.push({ server: name, status: "imported" });
    }
    await options.store.set(markerAccount(name), fingerprint);
  }
  return outcomes;
}
