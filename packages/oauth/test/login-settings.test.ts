/**
 * The per-server login settings `oauth.redirectUri` (a fixed callback URL)
 * and `oauth.authorizationServerUrl` (an authorization server chosen instead
 * of discovered), against test-kit's OAuth authorization server.
 */
import { createServer } from "node:net";
import { createFixtureServer, type OAuthMcpServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryCredentialStore, getMcpOAuthStatus, OAuthLogins } from "../src/index.js";

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function protectedServer(): Promise<OAuthMcpServer> {
  const server = await serveOAuthProtectedMcp({
    makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
  });
  servers.push(server);
  return server;
}
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("oauth.redirectUri", () => {
  it("a loopback URL with a port is registered as is and listened on at that port and path", async () => {
    const as = await protectedServer();
    const redirectUri = `http://127.0.0.1:${await freePort()}/oauth/done`;
    const store = createMemoryCredentialStore();
    const logins = new OAuthLogins({ store, servers: () => [{ name: "docs", url: as.url, redirectUri }] });
    const started = await logins.start("docs");
    if (started.status !== "pending") throw new Error("expected a pending login");
    expect(started.redirectUrl).toBe(redirectUri);
    expect(as.registrations[0]?.redirect_uris).toEqual([redirectUri]);
    const callback = await as.approve(started.authorizationUrl);
    expect(callback.startsWith(`${redirectUri}?`)).toBe(true);
    const page = await fetch(callback); // the browser reaching the fixed listener
    expect(await page.text()).toContain("Login complete");
    await started.done;
    expect((await getMcpOAuthStatus("docs", as.url, { store })).authenticated).toBe(true);
  });

  it("any other URL is paste-only: nothing listens, the pasted address finishes the login", async () => {
    const as = await protectedServer();
    const redirectUri = "https://login.example.com/mcp/callback";
    const store = createMemoryCredentialStore();
    const logins = new OAuthLogins({ store, servers: () => [{ name: "docs", url: as.url, redirectUri }] });
    const started = await logins.start("docs");
    if (started.status !== "pending") throw new Error("expected a pending login");
    expect(started.redirectUrl).toBe(redirectUri);
    const landedOn = await as.approve(started.authorizationUrl);
    expect(landedOn.startsWith(`${redirectUri}?`)).toBe(true);
    await logins.complete("docs", { redirectUrl: landedOn });
    expect((await getMcpOAuthStatus("docs", as.url, { store })).authenticated).toBe(true);
    await logins.shutdown();
  });
});

describe("oauth.authorizationServerUrl", () => {
  it("registers and authorizes at the configured server, not the one the MCP server advertises", async () => {
    const advertised = await protectedServer();
    const configured = await protectedServer();
    const logins = new OAuthLogins({
      store: createMemoryCredentialStore(),
      servers: () => [{ name: "docs", url: advertised.url, authorizationServerUrl: configured.issuer }],
    });
    const started = await logins.start("docs");
    if (started.status !== "pending") throw new Error("expected a pending login");
    expect(new URL(started.authorizationUrl).origin).toBe(new URL(configured.issuer).origin);
    expect(configured.registrations).toHaveLength(1);
    expect(advertised.registrations).toHaveLength(0);
    await logins.shutdown();
  });
});
