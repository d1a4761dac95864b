import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createFixtureServer,
  createPrivateCa,
  createTempDir,
  type HttpFixture,
  type PrivateCa,
  serveStreamableHttps,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caFetch } from "../../src/http/ca-fetch.js";
import { connectServer } from "../../src/index.js";
import { definition } from "../helpers.js";

let dir: TempDir;
let ca: PrivateCa;
let server: HttpFixture;

beforeAll(async () => {
  dir = await createTempDir();
  ca = await createPrivateCa(dir.path);
  server = await serveStreamableHttps(() => createFixtureServer({ tools: [{ name: "inside" }] }), ca);
});
afterAll(async () => {
  await server.close();
  await dir.remove();
});

const httpsServer = (name: string, caFile?: string) =>
  definition({ name, transport: "http", url: server.url, ...(caFile ? { caFile } : {}) });

describe("an HTTPS server behind a private CA", () => {
  it("is refused without caFile, with the TLS reason and the fix", async () => {
    await expect(connectServer(httpsServer("private"))).rejects.toThrow(
      /^Could not connect to MCP server "private": fetch failed \(TLS: .+; for a server behind a private CA, set "caFile" to the CA's PEM bundle\)$/,
    );
  });

  it("works with caFile, and the trust stays with that server: others and the process still refuse it", async () => {
    const trusted = await connectServer(httpsServer("private", ca.caFile));
    try {
      expect((await trusted.listTools()).map((t) => t.name)).toEqual(["inside"]);
      expect(await trusted.callTool("inside", { a: 1 })).toMatchObject({ content: [{ text: '{"a":1}' }] });
      await expect(connectServer(httpsServer("other"))).rejects.toThrow(/"other": fetch failed \(TLS: /);
      await expect(fetch(server.url, { method: "POST" })).rejects.toThrow(/fetch failed/);
    } finally {
      await trusted.close();
    }
  });

  it("fails closed, naming the file, when the bundle is gone or is not PEM by the time it connects", async () => {
    await expect(connectServer(httpsServer("private", dir.join("missing.pem")))).rejects.toThrow(
      `Server "private": CA file "${dir.join("missing.pem")}" cannot be read: ENOENT`,
    );
    await writeFile(dir.join("junk.pem"), "not a certificate");
    await expect(connectServer(httpsServer("private", dir.join("junk.pem")))).rejects.toThrow(
      `Server "private": CA file "${dir.join("junk.pem")}" holds no PEM certificate`,
    );
  });

  it("applies the CA to the server's own origin only; other origins (an outside OAuth server) go through the usual fetch", async () => {
    const elsewhere = createServer((_req, res) => res.end("plain http elsewhere"));
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/token`;
    const seen: string[] = [];
    try {
      const serverFetch = await caFetch("private", server.url, ca.caFile, (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      });
      expect(await (await serverFetch(other)).text()).toBe("plain http elsewhere");
      // The server's origin answers over TLS with the private CA (its SDK endpoint refuses a bare GET with 406).
      const sameOrigin = await serverFetch(new URL("/.well-known/oauth-protected-resource", server.url));
      expect(sameOrigin.status).toBe(406);
      expect(seen).toEqual([other]);
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });
});
