/**
 * pi-mcp-adapter 2.36 OAuth settings against a real local authorization
 * server (test-kit's, on 127.0.0.1): configured headers on the OAuth
 * requests behind a gate like Cloudflare Access, a `client_credentials`
 * machine login, a Client ID Metadata Document URL, `client_uri` /
 * `logo_uri` and extra authorization parameters, and a configured
 * authorization-server metadata document. Each ends in a tool call that
 * reaches the protected server.
 */
import { createFixtureServer, createTempDir, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import type { AdapterRuntime } from "../../src/adapter-runtime.js";
import { createRuntime } from "../../src/create-runtime.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");
const echoServer = () => createFixtureServer({ tools: [{ name: "echo" }] });

async function runtimeWith(cwd: string, docs: Record<string, unknown>): Promise<AdapterRuntime> {
  const runtime = await createRuntime({
    cwd,
    config: { settings: { oauthCredentialStore: "memory" }, mcpServers: { docs } },
    metadataCacheFile: false,
  });
  expect(runtime.servers.problems).toEqual([]);
  return runtime;
}

/** `auth-start`, the browser's visit, `auth-complete`; returns the authorization URL. */
async function logIn(
  runtime: AdapterRuntime,
  approve: (url: string) => Promise<string>,
  beforeReconnect?: () => void,
): Promise<URL> {
  const started = textOf(await runProxyRequest(runtime, { action: "auth-start", server: "docs" }));
  const url = started.split("\n").find((line) => line.startsWith("http")) as string;
  const landedOn = await approve(url);
  await runProxyRequest(runtime, {
    action: "auth-complete",
    server: "docs",
    args: { redirectUrl: landedOn },
  });
  beforeReconnect?.();
  await runtime.reconnect("docs");
  return new URL(url);
}

async function expectEcho(runtime: AdapterRuntime): Promise<void> {
  const call = await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "hi" } });
  expect(textOf(call)).toBe('{"text":"hi"}');
}

describe("2.36 OAuth settings", () => {
  it("sends the configured headers on the OAuth requests a gate in front of the servers needs", async () => {
    await using dir = await createTempDir();
    const gate = { "CF-Access-Client-Id": "pi.access", "CF-Access-Client-Secret": "gate-secret-7" };
    await using as = await serveOAuthProtectedMcp({ makeServer: echoServer, requiredHeaders: gate });
    const runtime = await runtimeWith(dir.path, {
      url: as.url,
      auth: "oauth",
      // A `!command` header value runs for the login's requests too.
      headers: { "CF-Access-Client-Id": "pi.access", "CF-Access-Client-Secret": "!printf %s gate-secret-7" },
    });
    try {
      await logIn(runtime, (url) => as.approve(url));
      await expectEcho(runtime);
      expect(as.gateRefusals).toEqual([]);
      expect(as.registrations).toHaveLength(1);
      expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code"]);
    } finally {
      await runtime.shutdown();
    }
  });

  it("keeps configured headers from an authorization server on another origin, login and refresh alike", async () => {
    await using dir = await createTempDir();
    await using resource = await serveOAuthProtectedMcp({ makeServer: echoServer });
    await using elsewhere = await serveOAuthProtectedMcp({ makeServer: echoServer });
    resource.useAuthorizationServer(elsewhere);
    const runtime = await runtimeWith(dir.path, {
      url: resource.url,
      lifecycle: "keep-alive",
      headers: { "X-Api-Key": "static-key-1", "X-Gate": "!printf %s command-key-2" },
    });
    try {
      await logIn(runtime, (url) => elsewhere.approve(url));
      await expectEcho(runtime);
      elsewhere.expireAccessTokens(); // the next call refreshes inside the connection
      await expectEcho(runtime);
      expect(elsewhere.tokenRequests.map((r) => r.get("grant_type"))).toEqual([
        "authorization_code",
        "refresh_token",
      ]);
      const sent = (log: typeof resource.requestLog) =>
        log.map((r) => [r.path, r.headers["x-api-key"], r.headers["x-gate"]]);
      expect(sent(elsewhere.requestLog).filter(([, key, gate]) => key || gate)).toEqual([]);
      expect(sent(resource.requestLog).filter(([path]) => path === "/mcp")).toContainEqual([
        "/mcp",
        "static-key-1",
        "command-key-2",
      ]);
    } finally {
      await runtime.shutdown();
    }
  });

  it('grantType "client_credentials" connects with the client\'s secret and no browser', async () => {
    await using dir = await createTempDir();
    await using as = await serveOAuthProtectedMcp({
      makeServer: echoServer,
      clients: [{ client_id: "machine-1", client_secret: "machine-secret" }],
    });
    const runtime = await runtimeWith(dir.path, {
      url: as.url,
      oauth: { grantType: "client_credentials", clientId: "machine-1", clientSecret: "machine-secret" },
    });
    try {
      await expectEcho(runtime);
      expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["client_credentials"]);
      expect(as.authorizeRequests).toEqual([]);
      expect(as.registrations).toEqual([]);
    } finally {
      await runtime.shutdown();
    }
  });

  it("uses clientMetadataUrl as the client ID where the server supports CIMD, with authorizationParams", async () => {
    await using dir = await createTempDir();
    await using as = await serveOAuthProtectedMcp({
      makeServer: echoServer,
      clientIdMetadataDocuments: true,
    });
    const clientMetadataUrl = "https://client.example.com/pi-mcp/client.json";
    const runtime = await runtimeWith(dir.path, {
      url: as.url,
      oauth: { clientMetadataUrl, authorizationParams: { prompt: "consent", audience: "docs-api" } },
    });
    try {
      const authorizationUrl = await logIn(runtime, (url) => as.approve(url));
      expect(authorizationUrl.searchParams.get("client_id")).toBe(clientMetadataUrl);
      expect(authorizationUrl.searchParams.get("prompt")).toBe("consent");
      expect(authorizationUrl.searchParams.get("audience")).toBe("docs-api");
      expect(as.registrations).toEqual([]);
      await expectEcho(runtime);
    } finally {
      await runtime.shutdown();
    }
  });

  it("registers with clientUri and logoUri where the server has no CIMD", async () => {
    await using dir = await createTempDir();
    await using as = await serveOAuthProtectedMcp({ makeServer: echoServer });
    const runtime = await runtimeWith(dir.path, {
      url: as.url,
      oauth: {
        clientMetadataUrl: "https://client.example.com/pi-mcp/client.json",
        clientUri: "https://pi.example.com",
        logoUri: "https://pi.example.com/logo.png",
      },
    });
    try {
      await logIn(runtime, (url) => as.approve(url));
      expect(as.registrations).toMatchObject([
        { client_uri: "https://pi.example.com", logo_uri: "https://pi.example.com/logo.png" },
      ]);
      await expectEcho(runtime);
    } finally {
      await runtime.shutdown();
    }
  });

  it("reads the authorization server from authServerMetadataUrl instead of discovery", async () => {
    await using dir = await createTempDir();
    await using resource = await serveOAuthProtectedMcp({ makeServer: echoServer });
    await using other = await serveOAuthProtectedMcp({ makeServer: echoServer });
    const runtime = await runtimeWith(dir.path, {
      url: resource.url,
      oauth: { authServerMetadataUrl: `${other.issuer}/.well-known/oauth-authorization-server` },
    });
    try {
      // The resource's own metadata names itself; the configured document names the other server.
      await logIn(
        runtime,
        (url) => other.approve(url),
        () => resource.useAuthorizationServer(other), // the resource accepts the other server's tokens
      );
      expect(other.registrations).toHaveLength(1);
      expect(other.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code"]);
      expect(resource.registrations).toEqual([]);
      await expectEcho(runtime);
    } finally {
      await runtime.shutdown();
    }
  });
});
