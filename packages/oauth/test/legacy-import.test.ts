import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  createMemoryCredentialStore,
  getMcpOAuthTokensForUrl,
  importLegacyTokens,
  logoutMcpOAuth,
} from "../src/index.js";

describe("legacy tokens.json import", () => {
  it("imports once into the store, bound to the configured URL, never touching the file", async () => {
    await using dir = await createTempDir();
    await mkdir(dir.join("docs"));
    await mkdir(dir.join("moved"));
    const legacy = JSON.stringify({ access_token: "legacy-token", token_type: "Bearer", refresh_token: "r" });
    await writeFile(dir.join("docs", "tokens.json"), legacy);
    await writeFile(
      dir.join("moved", "tokens.json"),
      JSON.stringify({ access_token: "t", serverUrl: "https://old.example.com/mcp" }),
    );
    const before = await stat(dir.join("docs", "tokens.json"));
    const store = createMemoryCredentialStore();
    const servers = [
      { name: "docs", url: "https://docs.example.com/mcp" },
      { name: "moved", url: "https://new.example.com/mcp" },
      { name: "none", url: "https://none.example.com/mcp" },
    ];

    expect(await importLegacyTokens({ dir: dir.path, servers, store })).toEqual([
      { server: "docs", status: "imported" },
      { server: "moved", status: "skipped", reason: "url_mismatch" },
      { server: "none", status: "skipped", reason: "no_file" },
    ]);
    expect(
      (await getMcpOAuthTokensForUrl("docs", "https://docs.example.com/mcp", { store }))?.access_token,
    ).toBe("legacy-token");
    expect(await getMcpOAuthTokensForUrl("moved", "https://new.example.com/mcp", { store })).toBeUndefined();

    // Logging out must not be undone by the next start importing the same file again.
    await logoutMcpOAuth("docs", { store });
    const again = await importLegacyTokens({ dir: dir.path, servers: servers.slice(0, 1), store });
    expect(again).toEqual([{ server: "docs", status: "skipped", reason: "already_imported" }]);
    expect(await getMcpOAuthTokensForUrl("docs", "https://docs.example.com/mcp", { store })).toBeUndefined();

    expect(await readFile(dir.join("docs", "tokens.json"), "utf8")).toBe(legacy);
    expect((await stat(dir.join("docs", "tokens.json"))).mtimeMs).toBe(before.mtimeMs);
  });
});
