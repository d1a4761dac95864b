/**
 * The SDK drops stored tokens after `invalid_grant`. When the refused refresh
 * token is one another session has already rotated, the record is read again
 * first and that session's newer tokens stay: the login is not lost. (This
 * held before the late-save fix too; it is pinned here beside it.)
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFixtureServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  createMemoryCredentialStore,
  createServerOAuth,
  getMcpOAuthTokensForUrl,
  startOAuthLogin,
} from "../src/index.js";

describe("invalid_grant after another session rotated the refresh token", () => {
  it("keeps the newer tokens, and the session goes on with them", async () => {
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: as.url, store });
    await fetch(await as.approve(login.authorizationUrl as URL));
    await login.done;

    const { provider, fetch: oauthFetch } = createServerOAuth({ name: "docs", url: as.url }, { store });
    const handed = (await provider.tokens())?.refresh_token;
    // Another session refreshes (the server rotates: `handed` is spent) …
    await getMcpOAuthTokensForUrl("docs", as.url, { store, refreshSkewMs: 7_200_000 });
    const rotated = JSON.parse((await store.get("docs")) as string).tokens.refresh_token;
    expect(rotated).not.toBe(handed);
    // … and this one's refresh with `handed` was refused: the SDK asks to drop the tokens.
    await provider.invalidateCredentials("tokens");
    expect(JSON.parse((await store.get("docs")) as string).tokens.refresh_token).toBe(rotated);

    as.expireAccessTokens();
    const client = new Client({ name: "check", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(as.url), { authProvider: provider, fetch: oauthFetch }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    await client.close();
    expect(as.authorizeRequests).toHaveLength(1);
  });
});
