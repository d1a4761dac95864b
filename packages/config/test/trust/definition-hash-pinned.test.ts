// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * Hashes pinned to their exact values: approvals (`approvals.json`) and the
 * metadata cache on users' disks are keyed by them, so any refactor of how a
 * definition is hashed must keep every byte.
 */
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { type ConfiguredServer, configHash, definitionHash } from "../../src/index.js";

const plain: ServerDefinition = {
  name: "plain",
  transport: "stdio",
  command: "node",
  args: ["server.js", "--port", "0"],
  env: { B: "2", A: "${TOKEN}", Z: "!cat /secret" },
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "/home/u/.config/mcp/mcp.json", key: "mcpServers.plain" },
};

const off: ServerDefinition = {
  name: "off",
  transport: "http",
  url: "https://mcp.example/mcp",
  headers: { "X-Key": "k", Authorization: "Bearer ${T}" },
  lifecycle: "keep-alive",
  protocol: "auto",
  disabled: true,
  source: { file: "/p/.mcp.json", key: "mcpServers.off" },
};

const layered: ConfiguredServer = {
  name: "layered",
  transport: "stdio",
  command: "npx",
  args: ["-y", "pkg@1.2.3"],
  cwd: undefined,
  env: { NESTED: "x" },
  lifecycle: "eager",
  idleTimeoutMin: 5,
  requestTimeoutMs: undefined,
  protocol: "legacy",
  includeTools: ["read_*", "list_*"],
  approveTools: ["write_*"],
  directTools: ["x", "y"],
  source: { file: "/p/.pi/mcp-adapter.json", key: "mcpServers.layered" },
  scope: "project",
  layers: [
    { file: "/home/u/.agents/mcp.json", key: "mcpServers.layered" },
    { file: "/p/.pi/mcp-adapter.json", key: "mcpServers.layered" },
  ],
  disabled: false,
  literalEnv: { L: "${NOT_EXPANDED}" },
  extra: { unknownKey: { deep: [1, { b: 2, a: undefined }] } },
  oauth: { clientId: "id", scopes: ["s1"] },
};

describe("definitionHash and configHash, pinned", () => {
  it("hash each definition to the same bytes as ever", () => {
    expect(definitionHash(plain)).toBe("0dad586a30189ee87a122c8adf9a0615066ed82d6f626e22fc27c146bc706589");
    expect(definitionHash(off)).toBe("541121eea22a04ad8680811b53c0ec7cf777bf29eb54040321e2217e0cde95d9");
    expect(definitionHash(layered)).toBe("8505be73d612a58f53bcea7910a6ea0b764abbc5878654df6495593205998497");
  });

  it("leave provenance and the on/off switch out of definitionHash", () => {
    const moved = { ...layered, source: plain.source, scope: "user" as const, layers: [], disabled: true };
    expect(definitionHash(moved)).toBe(definitionHash(layered));
  });

  it("hash a whole config to the same bytes as ever, in any order", () => {
    expect(configHash([layered, plain, off])).toBe(
      "1cd31e04a46d89b59ab1876d03373184181ca1a2d14e72859343bfb02eab3a6c",
    );
    expect(configHash([off, layered, plain])).toBe(configHash([layered, plain, off]));
    expect(configHash([off])).toBe("574a33f7d0dc1bc934b7adccc309059e0ee0cfe8167212edefed506fc3f88625");
  });
});
