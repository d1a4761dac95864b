/**
 * At session start, brings over what pi-mcp-adapter 2.x saved (OAuth logins
 * and `bearerTokenStore` tokens, see the oauth package's `importV2Credentials`)
 * for the configured servers, once per server, and says what happened in one
 * line per server worth a line (imported, or why not) — never a secret. A
 * store of ours that cannot be used now skips the import quietly (connections
 * report it) until a start where it can; the
 * `memory` store (tests, throwaway sessions) imports nothing. Once every
 * server is settled, a start reads only the import markers from the store;
 * where no store of 2.x can be reached (no session bus, no 2.x credential
 * files: most servers and containers), it reads nothing at all.
 */
import type { ConfiguredServer } from "@pi-mcp-adapter/config";
import { describeError } from "@pi-mcp-adapter/core";
import {
  type CredentialStore,
  isStoreFailure,
  pendingV2Imports,
  v2StoresReachable,
} from "@pi-mcp-adapter/oauth/store";

export async function importV2Credentials(options: {
  oauthServers: ConfiguredServer[];
  servers: ConfiguredServer[];
  store: CredentialStore;
  env: NodeJS.ProcessEnv;
  load: () => Promise<typeof import("@pi-mcp-adapter/oauth")>;
  warn?: (message: string) => void;
}): Promise<void> {
  const { store, env, warn } = options;
  const configured = [
    ...options.oauthServers.map((s) => ({ name: s.name, url: s.url as string, kind: "oauth" as const })),
    ...options.servers
      .filter((s) => s.bearerTokenStore && s.url)
      .map((s) => ({ name: s.name, url: s.url as string, kind: "bearer" as const })),
  ];
  // Nothing of 2.x can be read here (no session bus, no 2.x credential files): nothing to load or say.
  if (store.kind === "memory" || configured.length === 0 || !v2StoresReachable(env)) return;
  try {
    // Once every server is settled, a start reads only the markers: no login code, no 2.x binding.
    const servers = await pendingV2Imports(store, configured);
    if (servers.length === 0) return;
    const oauth = await options.load();
    for (const outcome of await oauth.importV2Credentials({ servers, store, env })) {
      const line = oauth.describeV2ImportOutcome(outcome);
      if (line) warn?.(line);
    }
  } catch (error) {
    // Our store is unusable now: each server needing it says so when it connects, so no second
    // notice here; nothing was settled, so the next start tries again. Anything else is said,
    // and the session goes on without the import.
    if (!isStoreFailure(error))
      warn?.(`The import of what pi-mcp-adapter 2.x saved failed: ${describeError(error)}`);
  }
}
