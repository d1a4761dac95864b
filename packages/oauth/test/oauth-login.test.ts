import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFixtureServer, type OAuthMcpServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMemoryCredentialStore,
  getMcpOAuthStatus,
  getMcpOAuthTokensForUrl,
  logoutMcpOAuth,
  McpOAuthProvider,
  type OAuthError,
  startOAuthLogin,
  updateMcpOAuthTokensForUrl,
} from "../src/index.js";

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function protectedServer(options: Partial<Parameters<typeof serveOAuthProtectedMcp>[0]> = {}) {
  const server = await serveOAuthProtectedMcp({
    makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    ...options,
  });
  servers.push(server);
  return server;
}

async function listToolNames(url: string, provider: McpOAuthProvider): Promise<string[]> {
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("startOAuthLogin", () => {
  it("logs in through the loopback callback with DCR, PKCE S256, state and resource", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: as.url, store, clientName: "Codex" });
    expect(login.status).toBe("pending");
    const authorizeUrl = login.authorizationUrl as URL;
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("state")).toBeTruthy();
    expect(authorizeUrl.searchParams.get("resource")).toBe(as.url);
    expect(login.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(as.registrations).toEqual([
      expect.objectContaining({ client_name: "Codex", redirect_uris: [login.redirectUrl] }),
    ]);

    const callback = await as.approve(authorizeUrl);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Login complete");
    await login.done;

    const status = await getMcpOAuthStatus("docs", as.url, { store });
    expect(status).toMatchObject({ authenticated: true, expired: false, canRefresh: true, store: "memory" });
    expect(JSON.stringify(status)).not.toMatch(/access_token|refresh_token|client_secret/);

    const provider = new McpOAuthProvider({ server: "docs", url: as.url, store });
    expect(await listToolNames(as.url, provider)).toEqual(["echo"]);
    expect(as.mcpAuthorizations.at(-1)).toMatch(/^Bearer /);
  });

  it("completes from a pasted redirect URL and refuses one with another state", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store,
      redirectUrl: "http://127.0.0.1:1/callback", // nothing listens: a remote browser cannot reach us
    });
    const callback = new URL(await as.approve(login.authorizationUrl as URL));
    const forged = new URL(callback);
    forged.searchParams.set("state", "someone-elses-state");
    const error = (await login.complete(forged.href).catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("state_mismatch");
    expect(error.message).not.toContain(callback.searchParams.get("code") as string);

    await login.complete(callback.href);
    await login.done;
    expect((await getMcpOAuthStatus("docs", as.url, { store })).authenticated).toBe(true);
  });

  it("accepts a bare pasted code", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store,
      redirectUrl: "http://127.0.0.1:1/cb",
    });
    const code = new URL(await as.approve(login.authorizationUrl as URL)).searchParams.get("code") as string;
    await login.complete(` ${code}\n`);
    expect((await getMcpOAuthTokensForUrl("docs", as.url, { store }))?.access_token).toBeTruthy();
  });

  it("gives parallel logins their own callback ports", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const [a, b] = await Promise.all([
      startOAuthLogin({ server: "a", url: as.url, store }),
      startOAuthLogin({ server: "b", url: as.url, store }),
    ]);
    expect(a.redirectUrl).not.toBe(b.redirectUrl);
    await fetch(await as.approve(b.authorizationUrl as URL));
    await fetch(await as.approve(a.authorizationUrl as URL));
    await Promise.all([a.done, b.done]);
    const [ta, tb] = await Promise.all([
      getMcpOAuthTokensForUrl("a", as.url, { store }),
      getMcpOAuthTokensForUrl("b", as.url, { store }),
    ]);
    expect(ta?.access_token).toBeTruthy();
    expect(ta?.access_token).not.toBe(tb?.access_token);
  });

  it("stops on an issuer mismatch unless the server opts out, warning each time", async () => {
    const as = await protectedServer({ issuerOverride: "https://evil.example" });
    const error = (await startOAuthLogin({
      server: "docs",
      url: as.url,
      store: createMemoryCredentialStore(),
    }).catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("issuer_mismatch");
    expect(error.message).toContain("https://evil.example");
    expect(as.registrations).toHaveLength(0);

    const warnings: string[] = [];
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store: createMemoryCredentialStore(),
      skipIssuerMetadataValidation: true,
      warn: (message) => warnings.push(message),
    });
    expect(login.status).toBe("pending");
    expect(warnings).toEqual([expect.stringContaining("skipIssuerMetadataValidation")]);
    await login.cancel();
  });

  it("uses a pre-registered client with client_secret_basic and never registers", async () => {
    const as = await protectedServer({ clients: [{ client_id: "pre", client_secret: "s3cret" }] });
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store,
      clientId: "pre",
      clientSecret: "s3cret",
      tokenEndpointAuthMethod: "client_secret_basic",
    });
    await fetch(await as.approve(login.authorizationUrl as URL));
    await login.done;
    expect(as.registrations).toHaveLength(0);
    expect(as.authorizeRequests[0]?.get("client_id")).toBe("pre");
    expect(as.tokenRequests[0]?.get("client_secret")).toBeNull(); // sent as Basic auth, not in the body
  });
});

describe("URL binding", () => {
  it("never sends a token stored for one URL to a changed URL", async () => {
    const first = await protectedServer();
    const second = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: first.url, store });
    await fetch(await first.approve(login.authorizationUrl as URL));
    await login.done;
    const old = (await getMcpOAuthTokensForUrl("docs", first.url, { store }))?.access_token as string;

    // The same configured name now points at another URL.
    expect(await getMcpOAuthTokensForUrl("docs", second.url, { store })).toBeUndefined();
    const provider = new McpOAuthProvider({ server: "docs", url: second.url, store });
    expect(await provider.tokens()).toBeUndefined();
    const error = (await listToolNames(second.url, provider).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/needs an OAuth login: run \/mcp-auth docs/);
    expect(second.mcpAuthorizations.join("\n")).not.toContain(old);
    expect(second.mcpAuthorizations.every((h) => h === "")).toBe(true);
  });
});

describe("token API", () => {
  it("refreshes an expiring token first, with rotation, and persists it", async () => {
    const as = await protectedServer({ accessTokenTtlSec: 3600 });
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: as.url, store });
    await fetch(await as.approve(login.authorizationUrl as URL));
    await login.done;
    const before = await getMcpOAuthTokensForUrl("docs", as.url, { store });

    const later = () => Date.now() + 3599 * 1000; // inside the refresh window
    const after = await getMcpOAuthTokensForUrl("docs", as.url, { store, now: later });
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
    expect(as.tokenRequests.at(-1)?.get("grant_type")).toBe("refresh_token");
    expect((await getMcpOAuthTokensForUrl("docs", as.url, { store }))?.access_token).toBe(
      after?.access_token,
    );

    // The stored (rotated) token still works for MCP calls.
    const provider = new McpOAuthProvider({ server: "docs", url: as.url, store });
    expect(await listToolNames(as.url, provider)).toEqual(["echo"]);
  });

  it("lets the transport refresh by itself after a 401", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: as.url, store });
    await fetch(await as.approve(login.authorizationUrl as URL));
    await login.done;
    as.expireAccessTokens();
    const provider = new McpOAuthProvider({ server: "docs", url: as.url, store });
    expect(await listToolNames(as.url, provider)).toEqual(["echo"]);
    expect(as.tokenRequests.at(-1)?.get("grant_type")).toBe("refresh_token");
  });

  it("stores tokens from another extension bound to the URL and validates them", async () => {
    const store = createMemoryCredentialStore();
    await updateMcpOAuthTokensForUrl(
      "docs",
      "https://mcp.example.com/mcp",
      { access_token: "abc", token_type: "Bearer" },
      { store },
    );
    expect(await getMcpOAuthTokensForUrl("docs", "https://mcp.example.com/mcp", { store })).toEqual({
      access_token: "abc",
      token_type: "Bearer",
    });
    expect(await getMcpOAuthTokensForUrl("docs", "https://other.example.com/mcp", { store })).toBeUndefined();
    const error = (await updateMcpOAuthTokensForUrl(
      "docs",
      "https://mcp.example.com/mcp",
      { access_token: "" } as never,
      {
        store,
      },
    ).catch((e: unknown) => e)) as OAuthError;
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("access_token");
  });

  it("drops an expired token that cannot be refreshed", async () => {
    const store = createMemoryCredentialStore();
    const url = "https://mcp.example.com/mcp";
    await updateMcpOAuthTokensForUrl(
      "docs",
      url,
      { access_token: "abc", token_type: "Bearer", expires_in: 10 },
      { store },
    );
    expect(
      await getMcpOAuthTokensForUrl("docs", url, { store, now: () => Date.now() + 20_000 }),
    ).toBeUndefined();
    expect((await getMcpOAuthStatus("docs", url, { store, now: () => Date.now() + 20_000 })).expired).toBe(
      true,
    );
  });
});

describe("logout", () => {
  it("deletes locally first, then revokes at the server", async () => {
    const as = await protectedServer();
    const store = createMemoryCredentialStore();
    const login = await startOAuthLogin({ server: "docs", url: as.url, store });
    await fetch(await as.approve(login.authorizationUrl as URL));
    await login.done;
    const tokens = await getMcpOAuthTokensForUrl("docs", as.url, { store });
    const result = await logoutMcpOAuth("docs", { store });
    expect(result).toEqual({ deleted: true, revocation: "revoked" });
    expect(await store.get("docs")).toBeUndefined();
    expect(as.revoked).toEqual([tokens?.refresh_token, tokens?.access_token]);
  });

  it("still deletes locally when revocation cannot reach the server", async () => {
    const store = createMemoryCredentialStore();
    await store.set(
      "docs",
      JSON.stringify({
        version: 1,
        server: "docs",
        url: "http://127.0.0.1:1/mcp",
        tokens: { access_token: "a", token_type: "Bearer" },
        discovery: {
          authorizationServerUrl: "http://127.0.0.1:1",
          authorizationServerMetadata: { revocation_endpoint: "http://127.0.0.1:1/revoke" },
        },
      }),
    );
    const result = await logoutMcpOAuth("docs", { store, timeoutMs: 1000 });
    expect(result.deleted).toBe(true);
    expect(["failed", "timed_out"]).toContain(result.revocation);
    expect(await store.get("docs")).toBeUndefined();
  });
});
