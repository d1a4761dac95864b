/**
 * Sessions that keep working for a while against an authorization server
 * that rotates refresh tokens (each works once) and issues 2-second access
 * tokens, so a session refreshes every few calls while others are refreshing
 * too. Three and five separate Node processes share the encrypted-file store
 * for 20 s of calls each; afterwards a fresh process must still call with the
 * stored login, without a new authorization. (A late save of an older
 * rotation used to put a spent refresh token back in the store: the next
 * process got `invalid_grant` and the login was deleted.)
 */
import { randomBytes } from "node:crypto";
import { createFixtureServer, createTempDir, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createCredentialStore, startOAuthLogin } from "../src/index.js";
import { runSessions } from "./session-processes.js";

const env = { ...process.env, PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64") };
const CALL_SECONDS = 20;

describe.concurrent("a login shared by sessions that keep refreshing", () => {
  for (const count of [3, 5]) {
    it(`survives ${count} processes calling for ${CALL_SECONDS} s with rotating refresh tokens`, async () => {
      await using dir = await createTempDir("oauth-rotation-");
      await using as = await serveOAuthProtectedMcp({
        makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
        accessTokenTtlSec: 2,
      });
      const store = () => createCredentialStore({ kind: "encrypted-file", dir: dir.join("oauth"), env });
      const login = await startOAuthLogin({ server: "docs", url: as.url, store: store() });
      await fetch(await as.approve(login.authorizationUrl as URL));
      await login.done;

      const args = [String(CALL_SECONDS)];
      const results = await runSessions({ dir: dir.path, url: as.url, mode: "calls", count, env, args });
      for (const result of results)
        expect(result, result.stderr).toMatchObject({ code: 0, stdout: "ready\nok\n" });
      // The sessions had to refresh many times (a 2 s token over 20 s), each refresh token once.
      const refreshes = as.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token");
      expect(refreshes.length).toBeGreaterThan(5);

      // A fresh process connects and lists tools with what is stored, without a new authorization.
      const fresh = await runSessions({ dir: dir.path, url: as.url, mode: "connect", count: 1, env });
      expect(fresh).toMatchObject([{ code: 0, stdout: "ready\nok\n" }]);
      expect(as.authorizeRequests).toHaveLength(1);
    }, 180_000);
  }
});
