// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configHash, definitionHash } from "../../src/index.js";
import { byName, createWorld, stdio } from "../world.js";

describe("configHash and definitionHash", () => {
  it("is stable across file order and provenance, and changes when a definition changes", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      mcpServers: { a: stdio("a"), b: stdio("b") },
    });
    const first = await w.load();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), { mcpServers: {} });
    await w.write(path.join(w.home, ".agents", "mcp.json"), { mcpServers: { b: stdio("b"), a: stdio("a") } });
    const moved = await w.load();
    expect(moved.configHash).toBe(first.configHash);
    expect(first.configHash).toMatch(/^[0-9a-f]{64}$/);
    expect(configHash([...first.servers].reverse())).toBe(first.configHash);

    await w.write(path.join(w.home, ".agents", "mcp.json"), {
      mcpServers: { b: stdio("b", { args: ["x"] }), a: stdio("a") },
    });
    const edited = await w.load();
    expect(edited.configHash).not.toBe(first.configHash);
    expect(definitionHash(byName(edited, "a"))).toBe(definitionHash(byName(first, "a")));
    expect(definitionHash(byName(edited, "b"))).not.toBe(definitionHash(byName(first, "b")));
  });

  it("hashes secrets as written, whatever the environment holds", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      mcpServers: { s: { url: "https://x.example", headers: { K: "!cat /nonexistent", T: "${TOKEN}" } } },
    });
    const one = await w.load({ environment: { env: { TOKEN: "one" } } });
    const two = await w.load({ environment: { env: { TOKEN: "two" } } });
    expect(one.configHash).toBe(two.configHash);
  });

  it("changes when a server is disabled, so cached metadata is not reused for a different set", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { a: stdio("a") } });
    const on = await w.load();
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), { mcpServers: { a: { disabled: true } } });
    const off = await w.load();
    expect(off.configHash).not.toBe(on.configHash);
    expect(definitionHash(byName(off, "a"))).toBe(definitionHash(byName(on, "a")));
  });
});
