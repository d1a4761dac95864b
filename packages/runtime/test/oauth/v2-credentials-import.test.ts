/**
 * The import of what pi-mcp-adapter 2.x saved, as a session start runs it
 * through the OAuth wiring. 2.36 itself (its published store module, run by
 * the oauth package's `write-as-2.36.mjs`) saves a login in its encrypted
 * credential file; a session with the encrypted-file store imports it and
 * says so, the next session says nothing and reads no more of 2.x, and a
 * session with the memory store imports nothing. Where no store of 2.x can be
 * reached, a start loads no login code and says nothing.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ConfiguredServer } from "@pi-mcp-adapter/config";
import { getMcpOAuthTokensForUrl } from "@pi-mcp-adapter/oauth";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createOAuthWiring } from "../../src/oauth/oauth-wiring.js";
import { importV2Credentials } from "../../src/oauth/v2-credentials-import.js";

const writeAs236 = fileURLToPath(new URL("../../../oauth/test/fixtures/write-as-2.36.mjs", import.meta.url));
const URL_DOCS = "https://docs.example.com/mcp";
const docs = {
  name: "docs",
  url: URL_DOCS,
  transport: "http",
  lifecycle: "lazy",
  protocol: "legacy",
  scope: "user",
  layers: [],
  source: { file: "/home/u/.pi/agent/mcp.json", key: "mcpServers.docs" },
} as unknown as ConfiguredServer;

describe("2.x's saved logins at session start", () => {
  it("are imported once with a notice; the memory store imports nothing", async () => {
    await using dir = await createTempDir("pi-mcp-v2-wiring-");
    const env = {
      PI_CODING_AGENT_DIR: dir.join("agent"),
      PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64"),
    };
    const writes = [
      { oauth: "docs", url: URL_DOCS, encryptedFile: true, tokens: { accessToken: "at-from-2x" } },
    ];
    const { stdout } = await promisify(execFile)(process.execPath, [writeAs236], {
      env: { ...process.env, ...env, V2_WRITES: JSON.stringify(writes) },
    });
    expect(stdout).toContain('{"ok":true}');

    const start = async (store: "encrypted-file" | "memory") => {
      const warnings: string[] = [];
      const wiring = await createOAuthWiring({
        servers: () => [docs],
        settings: { oauthCredentialStore: store },
        env,
        warn: (message) => warnings.push(message),
      });
      await wiring.shutdown();
      return { warnings, store: wiring.store };
    };

    const memory = await start("memory");
    expect(memory.warnings).toEqual([]);
    expect(await getMcpOAuthTokensForUrl("docs", URL_DOCS, { store: memory.store })).toBeUndefined();

    const first = await start("encrypted-file");
    expect(first.warnings).toEqual([
      'Imported the OAuth login pi-mcp-adapter 2.x saved for "docs" (from its encrypted file).',
    ]);
    const tokens = await getMcpOAuthTokensForUrl("docs", URL_DOCS, { store: first.store });
    expect(tokens?.access_token).toBe("at-from-2x");

    expect((await start("encrypted-file")).warnings).toEqual([]);
  });

  it("load nothing and say nothing where no store of 2.x can be reached (no session bus, no 2.x files)", async () => {
    await using dir = await createTempDir("pi-mcp-v2-none-");
    // As on most servers and containers: no D-Bus session bus, and no credential files of 2.x.
    const env = { PI_CODING_AGENT_DIR: dir.join("agent"), XDG_RUNTIME_DIR: dir.join("run") };
    const warnings: string[] = [];
    let loaded = false;
    const wiring = await createOAuthWiring({
      servers: () => [docs],
      settings: { oauthCredentialStore: "encrypted-file" },
      env: { ...env, PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64") },
    });
    await importV2Credentials({
      oauthServers: [docs],
      servers: [docs],
      store: wiring.store,
      env,
      load: async () => {
        loaded = true;
        return import("@pi-mcp-adapter/oauth");
      },
      warn: (message) => warnings.push(message),
    });
    await wiring.shutdown();
    expect({ loaded, warnings }).toEqual({ loaded: process.platform !== "linux", warnings: [] });
  });
});
