/**
 * A server's configured headers on its OAuth requests, with two real HTTP
 * servers on two origins: the MCP URL's origin gets them (unless the request
 * already has that header), another origin never does, a request carrying
 * them follows no redirect, and they are resolved once. Stored bearer
 * tokens: bound to the URL, masked, and never echoed when unreadable.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { withOAuthRequestHeaders } from "../src/flow/oauth-request-headers.js";
import { createMemoryCredentialStore } from "../src/index.js";
import {
  readStoredBearerToken,
  storeBearerToken,
  storedBearerTokenStatus,
} from "../src/stores/stored-bearer-token.js";

async function origin() {
  const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const http = createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    if (req.url === "/moved") return void res.writeHead(302, { location: "/token" }).end();
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { base, seen, [Symbol.asyncDispose]: () => new Promise<void>((r) => http.close(() => r())) };
}

describe("configured headers on OAuth requests", () => {
  it("go to the MCP URL's origin only, never over a request's own header, and follow no redirect", async () => {
    await using mcp = await origin();
    await using elsewhere = await origin();
    let resolved = 0;
    const fetch = withOAuthRequestHeaders(`${mcp.base}/mcp`, async () => {
      resolved++;
      return { "CF-Access-Client-Secret": "gate-secret", Authorization: "Basic configured" };
    });

    await fetch(`${mcp.base}/.well-known/oauth-authorization-server`);
    await fetch(`${mcp.base}/token`, { method: "POST", headers: { Authorization: "Basic sdk-client" } });
    await fetch(`${elsewhere.base}/token`, { method: "POST" });
    await expect(fetch(`${mcp.base}/moved`)).rejects.toThrow();

    expect(
      mcp.seen.map((r) => [r.path, r.headers["cf-access-client-secret"], r.headers.authorization]),
    ).toEqual([
      ["/.well-known/oauth-authorization-server", "gate-secret", "Basic configured"],
      ["/token", "gate-secret", "Basic sdk-client"],
      ["/moved", "gate-secret", "Basic configured"],
    ]);
    expect(elsewhere.seen).toHaveLength(1);
    expect(elsewhere.seen[0]?.headers["cf-access-client-secret"]).toBeUndefined();
    expect(resolved).toBe(1);
  });

  it("tries a failed resolution again on the next request", async () => {
    await using mcp = await origin();
    let calls = 0;
    const fetch = withOAuthRequestHeaders(`${mcp.base}/mcp`, async () => {
      if (++calls === 1) throw new Error("the secret command for headers.X exited with status 1");
      return { X: "v" };
    });
    await expect(fetch(`${mcp.base}/token`)).rejects.toThrow(/exited with status 1/);
    await fetch(`${mcp.base}/token`);
    expect(mcp.seen.map((r) => r.headers.x)).toEqual(["v"]);
  });
});

describe("stored bearer tokens", () => {
  it("are bound to the URL they were stored for, shown masked, and never echoed when unreadable", async () => {
    const store = createMemoryCredentialStore();
    await storeBearerToken(store, "docs", "https://docs.example.com/mcp#frag", "  long-token-value-1234\n");
    expect(await readStoredBearerToken(store, "docs", "https://docs.example.com/mcp")).toBe(
      "long-token-value-1234",
    );
    await expect(readStoredBearerToken(store, "docs", "https://other.example.com/mcp")).rejects.toThrow(
      /stored for https:\/\/docs\.example\.com\/mcp, not https:\/\/other\.example\.com\/mcp; it is not sent/,
    );
    expect(await storedBearerTokenStatus(store, "docs")).toMatchObject({
      url: "https://docs.example.com/mcp",
      masked: "****1234",
    });
    await storeBearerToken(store, "short", "https://s.example.com/mcp", "abc");
    expect((await storedBearerTokenStatus(store, "short")).masked).toBe("****");
    await expect(storeBearerToken(store, "x", "https://x.example.com", "a\nb")).rejects.toThrow(/one line/);

    await store.set("bearer-token:bad", '{"token":"leaky-secret"');
    const unreadable = readStoredBearerToken(store, "bad", "https://b.example.com");
    await expect(unreadable).rejects.toThrow(/is unreadable; run "pi-mcp-adapter token set bad" again/);
    await expect(unreadable).rejects.not.toThrow(/leaky-secret/);
  });
});
