/**
 * Several sessions sharing one credential store refresh at the same moment
 * against a real authorization server that rotates refresh tokens (each one
 * works once). Each session is its own Node process; the store is the
 * encrypted file. Every session must keep working, the store must end with
 * live tokens, and nobody may be sent back to log in.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFixtureServer, type OAuthMcpServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCredentialStore, createServerOAuth, startOAuthLogin } from "../src/index.js";
import { runSessions } from "./session-processes.js";

const env = { ...process.env, PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64") };

let dir: string;
let as: OAuthMcpServer;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oauth-refresh-"));
  as = await serveOAuthProtectedMcp({ makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }) });
});
afterEach(async () => {
  await as.close();
  await rm(dir, { recursive: true, force: true });
});

const store = () => createCredentialStore({ kind: "encrypted-file", dir: path.join(dir, "oauth"), env });

async function logIn(): Promise<void> {
  const login = await startOAuthLogin({ server: "docs", url: as.url, store: store() });
  await fetch(await as.approve(login.authorizationUrl as URL));
  await login.done;
}

const refreshRequests = () => as.tokenRequests.filter((r) => r.get("grant_type") === "refresh_token");

async function listWithStoredLogin(): Promise<string[]> {
  const { provider, fetch } = createServerOAuth({ name: "docs", url: as.url }, { store: store() });
  const client = new Client({ name: "check", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(as.url), { authProvider: provider, fetch }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("refresh across processes sharing a credential store", () => {
  it("five sessions whose access token was rejected all recover with one refresh, and the login survives", async () => {
    await logIn();
    as.expireAccessTokens();
    const results = await runSessions({ dir, url: as.url, mode: "connect", count: 5, env });
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: "ready\nok\n" });
    // One session refreshed; the other four took its rotated tokens from the store.
    expect(refreshRequests()).toHaveLength(1);
    // The stored login still works in a sixth session: no re-login needed.
    expect(await listWithStoredLogin()).toEqual(["echo"]);
    expect(as.authorizeRequests).toHaveLength(1);
    const record = JSON.parse((await store().get("docs")) as string);
    expect(as.introspect(record.tokens.access_token)).toBeDefined();
  }, 120_000);

  it("five token-API callers refreshing at once all get a live token, and the stored refresh token still works", async () => {
    await logIn();
    const results = await runSessions({ dir, url: as.url, mode: "token-api", count: 5, env });
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: "ready\nok\n" });
    expect(refreshRequests()).toHaveLength(1);
    // The refresh token left in the store is the live one: a rejected token refreshes with it.
    as.expireAccessTokens();
    expect(await listWithStoredLogin()).toEqual(["echo"]);
    expect(refreshRequests()).toHaveLength(2);
    expect(as.authorizeRequests).toHaveLength(1);
  }, 120_000);
});
