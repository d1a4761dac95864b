/**
 * Logging in again because the server asked: a scope step-up (SEP-2350) and a
 * resource that moved to another authorization server (SEP-2352), each
 * through a real SDK client, a connection's provider and a login, against the
 * test-kit OAuth server.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createFixtureServer, type OAuthMcpServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { parseChallenge } from "../src/flow/challenges.js";
import {
  createMemoryCredentialStore,
  createServerOAuth,
  McpOAuthProvider,
  OAuthChallenges,
  OAuthLogins,
  startOAuthLogin,
} from "../src/index.js";

const servers: OAuthMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function protectedServer(scopesSupported?: string[]) {
  const server = await serveOAuthProtectedMcp({
    makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    scopesSupported,
  });
  servers.push(server);
  return server;
}

/** What a connection does: list the tools with the provider (and fetch) it was given. */
async function listToolNames(url: string, provider: McpOAuthProvider, fetch?: FetchLike): Promise<string[]> {
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        authProvider: provider,
        ...(fetch ? { fetch } : {}),
      }),
    );
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

async function logIn(as: OAuthMcpServer, login: Awaited<ReturnType<typeof startOAuthLogin>>) {
  expect(login.status).toBe("pending");
  await fetch(await as.approve(login.authorizationUrl as URL));
  await login.done;
}

describe("scope step-up (SEP-2350)", () => {
  it("asks for the challenged scope together with the granted one, never settling for a refresh", async () => {
    const as = await protectedServer(["read"]);
    const store = createMemoryCredentialStore();
    await logIn(as, await startOAuthLogin({ server: "docs", url: as.url, store }));
    expect(as.authorizeRequests[0]?.get("scope")).toBe("read");

    as.requireScope("write");
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store,
      challenge: { scope: "write" },
    });
    // A refresh keeps the old grant ("read"): the user is asked, for both scopes.
    expect(login.status).toBe("pending");
    expect(login.authorizationUrl?.searchParams.get("scope")).toBe("read write");
    await logIn(as, login);
    expect(await listToolNames(as.url, new McpOAuthProvider({ server: "docs", url: as.url, store }))).toEqual(
      ["echo"],
    );
  });

  it("carries the server's 403 challenge from the connection to the next /mcp-auth login", async () => {
    const as = await protectedServer(["read"]);
    const store = createMemoryCredentialStore();
    const challenges = new OAuthChallenges();
    const entry = { name: "docs", url: as.url };
    const logins = new OAuthLogins({ store, challenges, servers: () => [entry] });
    const first = await logins.start("docs");
    if (first.status !== "pending") throw new Error("expected a pending login");
    await fetch(await as.approve(first.authorizationUrl));
    await first.done;

    as.requireScope("write");
    const { provider, fetch: connectionFetch } = createServerOAuth(entry, { store, challenges });
    await expect(listToolNames(as.url, provider, connectionFetch)).rejects.toThrow(/403/);
    expect(challenges.get("docs")).toMatchObject({
      status: 403,
      scope: "write",
      error: "insufficient_scope",
    });

    const stepUp = await logins.start("docs");
    if (stepUp.status !== "pending") throw new Error(`expected a pending login, got ${stepUp.status}`);
    expect(new URL(stepUp.authorizationUrl).searchParams.get("scope")).toBe("read write");
    await fetch(await as.approve(stepUp.authorizationUrl));
    await stepUp.done;
    expect(challenges.get("docs")).toBeUndefined();
    const after = createServerOAuth(entry, { store, challenges });
    expect(await listToolNames(as.url, after.provider, after.fetch)).toEqual(["echo"]);
  });

  it("reads Bearer and DPoP challenges, and ignores other schemes and DPoP nonce requests", () => {
    expect(
      parseChallenge(
        403,
        'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x.example/.well-known/oauth-protected-resource"',
      ),
    ).toEqual({
      status: 403,
      scope: "a b",
      error: "insufficient_scope",
      resourceMetadataUrl: "https://x.example/.well-known/oauth-protected-resource",
    });
    expect(parseChallenge(401, 'DPoP scope="a", algs="ES256"')).toEqual({ status: 401, scope: "a" });
    expect(parseChallenge(401, 'Basic realm="token"')).toBeUndefined();
    expect(parseChallenge(401, 'DPoP error="use_dpop_nonce"')).toBeUndefined();
    expect(parseChallenge(401, null)).toBeUndefined();
  });
});

describe("authorization-server migration (SEP-2352)", () => {
  it("notices on the next 401, and the login registers with the new authorization server", async () => {
    const resource = await protectedServer();
    const next = await protectedServer();
    const store = createMemoryCredentialStore();
    await logIn(resource, await startOAuthLogin({ server: "docs", url: resource.url, store }));
    const tokenRequests = resource.tokenRequests.length;

    resource.useAuthorizationServer(next);
    // The connection neither refreshes at the old server nor registers by itself: it needs a login.
    const connection = new McpOAuthProvider({ server: "docs", url: resource.url, store });
    await expect(listToolNames(resource.url, connection)).rejects.toThrow(/needs an OAuth login/);
    expect(resource.tokenRequests).toHaveLength(tokenRequests);
    expect(next.registrations).toHaveLength(0);

    const login = await startOAuthLogin({ server: "docs", url: resource.url, store });
    expect(login.authorizationUrl?.origin).toBe(new URL(next.issuer).origin);
    expect(next.registrations).toHaveLength(1);
    expect(resource.registrations).toHaveLength(1);
    await logIn(next, login);
    const after = new McpOAuthProvider({ server: "docs", url: resource.url, store });
    expect(await listToolNames(resource.url, after)).toEqual(["echo"]);
    expect(next.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code"]);
  });
});
