import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { createFixtureServer, serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer, type FetchLike } from "../../src/index.js";
import { definition } from "../helpers.js";

function recordingFetch() {
  const calls: { method: string; headers: Headers }[] = [];
  const fetchFn: FetchLike = (input, init) => {
    calls.push({ method: init?.method ?? "GET", headers: new Headers(init?.headers) });
    return fetch(input, init);
  };
  return { calls, fetch: fetchFn };
}

const fixture = () => createFixtureServer({ tools: [{ name: "hello" }] });

describe("Streamable HTTP", () => {
  it("sends configured headers and ends the session with DELETE on close", async () => {
    await using server = await serveStreamableHttp(fixture);
    const recorder = recordingFetch();
    const connection = await connectServer(
      definition({ name: "web", transport: "http", url: server.url, headers: { "X-Team": "blue" } }),
      { fetch: recorder.fetch },
    );
    await connection.callTool("hello", {});
    expect(recorder.calls.every((c) => c.headers.get("x-team") === "blue")).toBe(true);
    await connection.close();
    const last = recorder.calls.at(-1)!;
    expect(last.method).toBe("DELETE");
    expect(last.headers.get("mcp-session-id")).toBeTruthy();
  });

  it("puts the OAuth provider's bearer token on every request", async () => {
    await using server = await serveStreamableHttp(fixture);
    const recorder = recordingFetch();
    const provider: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1/callback",
      clientMetadata: { redirect_uris: ["http://127.0.0.1/callback"] },
      clientInformation: () => ({ client_id: "test" }),
      tokens: () => ({ access_token: "token-123", token_type: "Bearer" }),
      saveTokens: () => {},
      redirectToAuthorization: () => {},
      saveCodeVerifier: () => {},
      codeVerifier: () => "verifier",
    };
    const connection = await connectServer(definition({ name: "web", transport: "http", url: server.url }), {
      fetch: recorder.fetch,
      authProvider: () => provider,
    });
    await connection.listTools();
    await connection.close();
    const posts = recorder.calls.filter((c) => c.method === "POST");
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((c) => c.headers.get("authorization") === "Bearer token-123")).toBe(true);
  });
});
