import { mkdir, writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ConfiguredServer } from "@pi-mcp-adapter/config";
import { createMemoryCredentialStore, getMcpOAuthTokensForUrl } from "@pi-mcp-adapter/oauth";
import {
  createFixtureServer,
  createTempDir,
  type OAuthMcpServer,
  serveOAuthProtectedMcp,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOAuthWiring, type OAuthWiring, usesOAuth } from "../../src/oauth/oauth-wiring.js";

const server = (fields: Partial<ConfiguredServer>): ConfiguredServer =>
  ({
    transport: "http",
    lifecycle: "lazy",
    protocol: "legacy",
    scope: "user",
    layers: [],
    source: { file: "/home/u/.pi/agent/mcp.json", key: `mcpServers.${fields.name}` },
    ...fields,
  }) as ConfiguredServer;

describe("OAuth wiring for the runtime", () => {
  let as: OAuthMcpServer;
  let wiring: OAuthWiring | undefined;

  beforeEach(async () => {
    as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
      clients: [{ client_id: "pre", client_secret: "from-command" }],
    });
  });

  afterEach(async () => {
    await wiring?.shutdown();
    wiring = undefined;
    await as.close();
  });

  it("serves auth-start / auth-complete and hands connections a working provider", async () => {
    const servers = [
      server({ name: "docs", url: as.url }),
      server({ name: "local", transport: "stdio", command: "node" }),
      server({ name: "static", url: as.url, bearerToken: "x" }),
    ];
    expect(servers.map(usesOAuth)).toEqual([true, false, false]);
    wiring = await createOAuthWiring({
      servers: () => servers,
      settings: { oauthCredentialStore: "memory", oauthClientName: "Codex" },
    });

    const started = (await wiring.proxyAction("auth-start", "docs", undefined)) as string;
    const authorizationUrl = started.split("\n")[1] as string;
    expect(as.registrations[0]?.client_name).toBe("Codex");
    const callback = await as.approve(authorizationUrl);
    expect(await wiring.proxyAction("auth-complete", "docs", { redirectUrl: callback })).toMatch(
      /Logged in to "docs"/,
    );

    // Cooperating extensions read the same store through the public subpath.
    expect((await getMcpOAuthTokensForUrl("docs", as.url))?.access_token).toBeTruthy();

    expect(await wiring.connectionAuth(servers[1] as ConfiguredServer)).toEqual({});
    expect(await wiring.connectionAuth(servers[2] as ConfiguredServer)).toEqual({});
    const viaHook = new Client({ name: "t", version: "1" });
    await viaHook.connect(
      new StreamableHTTPClientTransport(new URL(as.url), {
        authProvider: (await wiring.connectionAuth(servers[0] as ConfiguredServer)).authProvider,
      }),
    );
    expect((await viaHook.listTools()).tools).toHaveLength(1);
    await viaHook.close();
    expect(await wiring.proxyAction("call", "docs", undefined)).toBeUndefined();
    await expect(wiring.proxyAction("auth-start", undefined, undefined)).rejects.toThrow(/needs "server"/);
  });

  it("auth-start after a 403 asks for the challenged scope on top of the granted one", async () => {
    await using scoped = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
      scopesSupported: ["read"],
    });
    const docs = server({ name: "docs", url: scoped.url });
    wiring = await createOAuthWiring({
      servers: () => [docs],
      settings: {},
      store: createMemoryCredentialStore(),
    });
    const logIn = async () => {
      const started = (await wiring?.proxyAction("auth-start", "docs", undefined)) as string;
      const authorizationUrl = new URL(started.split("\n")[1] as string);
      await wiring?.proxyAction("auth-complete", "docs", {
        redirectUrl: await scoped.approve(authorizationUrl),
      });
      return authorizationUrl.searchParams.get("scope");
    };
    const listTools = async () => {
      const client = new Client({ name: "t", version: "1" });
      const { authProvider, fetch } = (await wiring?.connectionAuth(docs)) ?? {};
      await client.connect(
        new StreamableHTTPClientTransport(new URL(scoped.url), {
          authProvider,
          ...(fetch ? { fetch } : {}),
        }),
      );
      try {
        return (await client.listTools()).tools.length;
      } finally {
        await client.close();
      }
    };
    expect(await logIn()).toBe("read");
    scoped.requireScope("write");
    await expect(listTools()).rejects.toThrow(/403/);
    expect(await logIn()).toBe("read write");
    expect(await listTools()).toBe(1);
  });

  it("resolves a !command client secret only when logging in", async () => {
    wiring = await createOAuthWiring({
      servers: () => [
        server({
          name: "docs",
          url: as.url,
          oauth: { clientId: "pre", clientSecret: "!printf from-command" },
        }),
      ],
      settings: {},
      store: createMemoryCredentialStore(),
    });
    const started = (await wiring.proxyAction("auth-start", "docs", undefined)) as string;
    const callback = await as.approve(started.split("\n")[1] as string);
    await wiring.proxyAction("auth-complete", "docs", { redirectUrl: callback });
    expect(as.registrations).toHaveLength(0);
    expect(as.tokenRequests[0]?.get("grant_type")).toBe("authorization_code");
  });

  it("imports legacy tokens.json once and rejects an unknown credential store", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("docs"));
    await writeFile(
      dir.join("docs", "tokens.json"),
      JSON.stringify({ access_token: "old", token_type: "Bearer" }),
    );
    const store = createMemoryCredentialStore();
    wiring = await createOAuthWiring({
      servers: () => [server({ name: "docs", url: as.url })],
      settings: { oauthDir: dir.path },
      store,
    });
    expect((await getMcpOAuthTokensForUrl("docs", as.url, { store }))?.access_token).toBe("old");

    await expect(
      createOAuthWiring({ servers: () => [], settings: { oauthCredentialStore: "plaintext" } }),
    ).rejects.toThrow(/oauthCredentialStore must be "keyring" or "encrypted-file".*got "plaintext"/);
  });

  it("a store that cannot be used skips the legacy import with a warning; OAuth stays on", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("docs"));
    await writeFile(
      dir.join("docs", "tokens.json"),
      JSON.stringify({ access_token: "old", token_type: "Bearer" }),
    );
    const warnings: string[] = [];
    wiring = await createOAuthWiring({
      servers: () => [server({ name: "docs", url: as.url })],
      // The encrypted-file store without PI_MCP_ADAPTER_OAUTH_FILE_KEY in its environment.
      settings: { oauthDir: dir.path, oauthCredentialStore: "encrypted-file" },
      env: { PI_CODING_AGENT_DIR: dir.join("agent") },
      warn: (message) => warnings.push(message),
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^legacy tokens in .* were not imported: .*PI_MCP_ADAPTER_OAUTH_FILE_KEY/);
    expect(wiring.serverNames()).toEqual(["docs"]);
  });

  it("auth-start opens the login page; only a login the browser finishes by itself is told", async () => {
    const opened: string[] = [];
    const told: string[] = [];
    const servers = [server({ name: "docs", url: as.url }), server({ name: "wiki", url: as.url })];
    const ready = await createOAuthWiring({
      servers: () => servers,
      settings: {},
      store: createMemoryCredentialStore(),
      openBrowser: (url) => opened.push(url),
      onBackgroundLogin: (name) => told.push(name),
    });
    wiring = ready;
    const urlOf = async (name: string) =>
      ((await ready.proxyAction("auth-start", name, undefined)) as string).split("\n")[1] as string;

    const docsUrl = await urlOf("docs");
    await ready.proxyAction("auth-complete", "docs", { redirectUrl: await as.approve(docsUrl) });
    const wikiUrl = await urlOf("wiki");
    expect(opened).toEqual([docsUrl, wikiUrl]);
    // The browser reaches the loopback listener for wiki: that login finishes by itself.
    await fetch(await as.approve(wikiUrl));
    await expect.poll(() => told).toEqual(["wiki"]);
  });

  it("with autoAuth, a connection that needs a login starts one and reports its URL", async () => {
    const started: string[] = [];
    const servers = [server({ name: "docs", url: as.url })];
    wiring = await createOAuthWiring({
      servers: () => servers,
      settings: { autoAuth: true },
      store: createMemoryCredentialStore(),
      onAutoAuth: (result) => {
        if (result.status === "pending") started.push(result.authorizationUrl);
      },
    });
    const connect = async () => {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(as.url), {
          authProvider: (await wiring?.connectionAuth(servers[0] as ConfiguredServer))?.authProvider,
        }),
      );
      return client;
    };
    await expect(connect()).rejects.toThrow(/needs an OAuth login: run \/mcp-auth docs/);
    await expect.poll(() => started.length).toBe(1);
    // The browser reaches the loopback listener; the login finishes by itself.
    await fetch(await as.approve(started[0] as string));
    await expect.poll(async () => (await (await wiring?.logins())?.status("docs"))?.authenticated).toBe(true);
    const client = await connect();
    expect((await client.listTools()).tools).toHaveLength(1);
    await client.close();
  });
});
