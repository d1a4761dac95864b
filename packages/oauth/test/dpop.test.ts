import { createHash } from "node:crypto";
import { createFixtureServer, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { generateDpopKey } from "../src/flow/dpop.js";
import {
  createDpopFetch,
  createMemoryCredentialStore,
  getMcpOAuthStatus,
  loadOrCreateDpopKey,
  McpOAuthProvider,
  type OAuthError,
  startOAuthLogin,
} from "../src/index.js";

describe("DPoP", () => {
  it("signs ES256 proofs with htm, htu, ath and presents the token with the DPoP scheme", async () => {
    const { key } = await generateDpopKey();
    const seen: Headers[] = [];
    const dpopFetch = createDpopFetch({
      key,
      fetch: async (_input, init) => {
        seen.push(new Headers(init?.headers));
        return new Response("{}", { status: 200 });
      },
    });
    await dpopFetch("https://mcp.example.com/mcp?x=1", {
      method: "POST",
      headers: { authorization: "Bearer tok-1" },
      body: "{}",
    });
    const headers = seen[0] as Headers;
    expect(headers.get("authorization")).toBe("DPoP tok-1");
    const proof = headers.get("dpop") as string;
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256" });
    const { payload } = await jwtVerify(proof, header.jwk as never);
    expect(payload).toMatchObject({ htm: "POST", htu: "https://mcp.example.com/mcp" });
    expect(payload.ath).toBe(createHash("sha256").update("tok-1").digest("base64url"));
    expect(typeof payload.jti).toBe("string");

    // Requests without a token and outside token requests pass through untouched.
    await dpopFetch("https://mcp.example.com/.well-known/oauth-protected-resource");
    expect(seen[1]?.get("dpop")).toBeNull();
  });

  it("keeps the key with the server's credentials across restarts", async () => {
    const store = createMemoryCredentialStore();
    const credentials = () =>
      new McpOAuthProvider({ server: "docs", url: "https://mcp.example.com/mcp", store }).credentials;
    const first = await loadOrCreateDpopKey(credentials());
    const second = await loadOrCreateDpopKey(credentials());
    expect(second.publicJwk).toEqual(first.publicJwk);
    expect(JSON.stringify(first.publicJwk)).not.toContain('"d"');
  });

  it("fails closed when the authorization server issues a Bearer token", async () => {
    await using as = await serveOAuthProtectedMcp({ makeServer: () => createFixtureServer({ tools: [] }) });
    const store = createMemoryCredentialStore();
    const { key } = await generateDpopKey();
    const login = await startOAuthLogin({
      server: "docs",
      url: as.url,
      store,
      redirectUrl: "http://127.0.0.1:1/cb",
      fetch: createDpopFetch({ key }),
    });
    const callback = await as.approve(login.authorizationUrl as URL);
    const error = (await login.complete(callback).catch((e: unknown) => e)) as OAuthError;
    expect(error.message).toMatch(/issued a "Bearer" token instead of a DPoP-bound one/);
    expect((await getMcpOAuthStatus("docs", as.url, { store })).authenticated).toBe(false);
  });
});
