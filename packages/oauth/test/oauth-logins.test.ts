import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createFixtureServer, type OAuthMcpServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  authStartMessage,
  type CredentialStore,
  createMemoryCredentialStore,
  createServerOAuth,
  type OAuthError,
  OAuthLogins,
  type OAuthServerEntry,
} from "../src/index.js";

describe("OAuthLogins (auth-start / auth-complete)", () => {
  let as: OAuthMcpServer;
  let logins: OAuthLogins;
  let store: CredentialStore;
  let entry: OAuthServerEntry;

  beforeEach(async () => {
    as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    store = createMemoryCredentialStore();
    entry = { name: "docs", url: as.url, clientName: "Claude Code" };
    logins = new OAuthLogins({ store, servers: () => [entry] });
  });

  afterEach(async () => {
    await logins.shutdown();
    await as.close();
  });

  it("starts a login, completes it from a pasted address, and a connection built from the same entry then works", async () => {
    const started = await logins.start("docs");
    if (started.status !== "pending") throw new Error("expected a pending login");
    const message = authStartMessage(started);
    expect(message).toContain(started.authorizationUrl);
    expect(message).toContain('action: "auth-complete"');
    expect(as.registrations[0]?.client_name).toBe("Claude Code");

    const callback = await as.approve(started.authorizationUrl);
    await logins.complete("docs", { redirectUrl: callback });
    await started.done;
    expect(logins.isPending("docs")).toBe(false);
    expect((await logins.status("docs")).authenticated).toBe(true);

    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(as.url), {
        authProvider: createServerOAuth(entry, { store }).provider,
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
    await client.close();

    expect(await logins.logout("docs")).toEqual({ deleted: true, revocation: "revoked" });
    expect((await logins.status("docs")).authenticated).toBe(false);
  });

  it("explains what is wrong: unknown server, no login in progress, nothing pasted", async () => {
    const unknown = (await logins.start("nope").catch((e: unknown) => e)) as OAuthError;
    expect(unknown.message).toMatch(/No HTTP MCP server named "nope".*known: docs/);
    const none = (await logins.complete("docs", { code: "x" }).catch((e: unknown) => e)) as OAuthError;
    expect(none.message).toMatch(/No OAuth login for "docs" is in progress/);
    await logins.start("docs");
    const empty = (await logins.complete("docs", {}).catch((e: unknown) => e)) as OAuthError;
    expect(empty.message).toMatch(/args.redirectUrl/);
  });
});
