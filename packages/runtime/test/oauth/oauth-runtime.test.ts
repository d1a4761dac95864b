import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createFixtureServer,
  createTempDir,
  serveOAuthProtectedMcp,
  serveStreamableHttp,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

describe("OAuth through the runtime and the proxy tool", () => {
  it("auth-start / auth-complete log in, and the next call reaches the protected server", async () => {
    await using dir = await createTempDir();
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { settings: { oauthCredentialStore: "memory" }, mcpServers: { docs: { url: as.url } } },
      metadataCacheFile: false,
    });
    try {
      // Before a login the call fails and says how to log in.
      await expect(runProxyRequest(runtime, { tool: "docs_echo", args: { text: "x" } })).rejects.toThrow(
        /mcp-auth|auth/i,
      );
      const started = textOf(await runProxyRequest(runtime, { action: "auth-start", server: "docs" }));
      const url = started.split("\n").find((line) => line.startsWith("http")) as string;
      const landedOn = await as.approve(url);
      const completed = await runProxyRequest(runtime, {
        action: "auth-complete",
        server: "docs",
        args: { redirectUrl: landedOn },
      });
      expect(textOf(completed)).toMatch(/Logged in to "docs"/);
      await runtime.reconnect("docs");
      const call = await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "hi" } });
      expect(textOf(call)).toBe('{"text":"hi"}');
      expect(as.mcpAuthorizations.at(-1)).toMatch(/^Bearer /);

      await expect(runProxyRequest(runtime, { action: "auth-start", server: "nope" })).rejects.toThrow(
        /No HTTP MCP server named "nope"/,
      );
      await expect(runProxyRequest(runtime, { action: "auth-begin", server: "docs" })).rejects.toThrow(
        /Unknown action "auth-begin"/,
      );
    } finally {
      await runtime.shutdown();
    }
  });

  it("a credential store that cannot be used blocks only the server that needs a login", async () => {
    // The encrypted-file store without its key: the same "cannot be used" path as a keyring without
    // keytar or D-Bus (apps/e2e/test/oauth/no-keyring.test.ts runs those in real Pi).
    await using dir = await createTempDir();
    await using open = await serveStreamableHttp(() => createFixtureServer({ tools: [{ name: "echo" }] }));
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        settings: { oauthCredentialStore: "encrypted-file" },
        mcpServers: { open: { url: open.url }, docs: { url: as.url } },
      },
      metadataCacheFile: false,
      oauth: { env: { PI_CODING_AGENT_DIR: dir.join("agent") } },
    });
    try {
      const call = await runProxyRequest(runtime, { tool: "open_echo", args: { text: "hi" } });
      expect(textOf(call)).toBe('{"text":"hi"}');

      await expect(runProxyRequest(runtime, { tool: "docs_echo", args: { text: "x" } })).rejects.toThrow(
        /needs an OAuth login, but the encrypted-file credential store cannot be used here/,
      );
      const docs = runtime.listings.summaries().find((s) => s.name === "docs");
      expect(docs?.state).toBe("needs-auth");
      expect(docs?.error).toMatch(/needs PI_MCP_ADAPTER_OAUTH_FILE_KEY.*Then run \/mcp-auth docs/s);
      expect(runtime.listings.summaries().find((s) => s.name === "open")?.state).toBe("connected");

      // A login is refused before any authorization URL exists.
      await expect(runProxyRequest(runtime, { action: "auth-start", server: "docs" })).rejects.toThrow(
        /^Cannot log in to "docs": .*PI_MCP_ADAPTER_OAUTH_FILE_KEY/,
      );
      expect(as.authorizeRequests).toHaveLength(0);
      expect(as.registrations).toHaveLength(0);
    } finally {
      await runtime.shutdown();
    }
  });

  it("an unknown credential store is a config problem, not a dead runtime", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { settings: { oauthCredentialStore: "plaintext" }, mcpServers: {} },
      metadataCacheFile: false,
    });
    try {
      expect(runtime.oauth).toBeUndefined();
      expect(runtime.servers.problems.map((p) => p.message).join("\n")).toMatch(
        /OAuth is off for this session: .*oauthCredentialStore must be "keyring" or "encrypted-file"/,
      );
      await expect(runProxyRequest(runtime, { action: "auth-start", server: "docs" })).rejects.toThrow(
        /OAuth is not available/,
      );
    } finally {
      await runtime.shutdown();
    }
  });
  it("a 401 from a server that offers no OAuth (an API-key gateway) names the credentials, not only /mcp-auth", async () => {
    // mcp-proxy --apiKey answers like this: 401 with an invalid_token challenge and no OAuth metadata anywhere.
    await using dir = await createTempDir();
    const gateway = createServer((req, res) => {
      if (req.url?.startsWith("/.well-known/")) return void res.writeHead(404).end();
      res.writeHead(401, {
        "WWW-Authenticate":
          'Bearer error="invalid_token", error_description="Unauthorized: Invalid or missing API key"',
        "Content-Type": "application/json",
      });
      res.end(JSON.stringify({ error: "Unauthorized: Invalid or missing API key" }));
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`;
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { settings: { oauthCredentialStore: "memory" }, mcpServers: { gw: { url } } },
      metadataCacheFile: false,
    });
    try {
      const failure = runProxyRequest(runtime, { tool: "gw_echo", args: { text: "x" } });
      await expect(failure).rejects.toThrow(/gw" answered 401 and offers no OAuth login/);
      await expect(failure).rejects.toThrow(/headers|bearerTokenEnv/);
    } finally {
      await runtime.shutdown();
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});
