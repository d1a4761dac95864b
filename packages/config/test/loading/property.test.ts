import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseConfigLayer } from "../../src/layers/config-layer.js";
import { zodLayerCheck } from "../../src/layers/zod-layer-check.js";
import { createWorld } from "../world.js";

/** Keys that exist on every object's prototype: lookups must not find them. */
const key = fc.oneof(
  fc.string(),
  fc.constantFrom("__proto__", "constructor", "valueOf", "toString", "hasOwnProperty"),
);
const serverish = fc.record(
  {
    command: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
    args: fc.oneof(fc.array(fc.string()), fc.jsonValue()),
    url: fc.oneof(fc.webUrl(), fc.string()),
    type: fc.oneof(
      fc.constantFrom("stdio", "http", "sse", "socket", "local", "remote", "constructor"),
      fc.string(),
    ),
    disabled: fc.jsonValue(),
    env: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const documents = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      mcpServers: fc.oneof(fc.dictionary(key, fc.oneof(serverish, fc.jsonValue())), fc.jsonValue()),
      mcp: fc.oneof(fc.record({ servers: fc.array(fc.oneof(serverish, fc.jsonValue())) }), fc.jsonValue()),
      settings: fc.oneof(fc.dictionary(key, fc.jsonValue()), fc.jsonValue()),
      disabledMcpServers: fc.jsonValue(),
      imports: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

describe("property: random input never throws out of the loader", () => {
  it("parseConfigLayer returns problems instead of throwing", () => {
    fc.assert(
      fc.property(documents, (document) => {
        const layer = parseConfigLayer(document, "/x.json", "user", zodLayerCheck);
        expect(Array.isArray(layer.problems)).toBe(true);
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it("loadConfig survives random JSON and random text in every project file", async () => {
    await using w = await createWorld();
    await fc.assert(
      fc.asyncProperty(documents, fc.string(), async (document, text) => {
        await w.write(path.join(w.project, ".mcp.json"), JSON.stringify(document));
        await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), text);
        const config = await w.load();
        expect(config.configHash).toMatch(/^[0-9a-f]{64}$/);
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  it("loadConfig survives random text and random JSON in other hosts' files", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      imports: ["codex", "cursor", "opencode", "vscode"],
    });
    await fc.assert(
      fc.asyncProperty(fc.string(), documents, fc.jsonValue(), async (toml, cursor, vscode) => {
        await w.write(path.join(w.home, ".codex", "config.toml"), `[mcp_servers.x]\n${toml}`);
        await w.write(path.join(w.home, ".cursor", "mcp.json"), JSON.stringify(cursor));
        await w.write(
          path.join(w.home, ".config", "opencode", "opencode.json"),
          JSON.stringify({ mcp: cursor }),
        );
        await w.write(path.join(w.project, ".vscode", "mcp.json"), JSON.stringify({ servers: vscode }));
        const config = await w.load();
        expect(config.configHash).toMatch(/^[0-9a-f]{64}$/);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
