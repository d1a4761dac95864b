import { describe, expect, it } from "vitest";
import { canonicalJson, definitionKey, type ServerDefinition } from "../src/index.js";

const server: ServerDefinition = {
  name: "files",
  transport: "stdio",
  command: "node",
  args: ["server.js"],
  env: { B: "2", A: "1" },
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "/home/u/.config/mcp/mcp.json", key: "mcpServers.files" },
};

describe("canonicalJson", () => {
  it("sorts keys at every depth and leaves undefined members out", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: undefined }], c: null }, e: undefined })).toBe(
      '{"a":{"c":null,"d":[1,{"z":0}]},"b":1}',
    );
    expect(canonicalJson([undefined, "x"])).toBe('[null,"x"]');
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("gives the bytes hashes on disk were made with (keys in code-unit order, odd values as JSON has them)", () => {
    // The implementation before it was written as loops: pins and definition hashes on disk depend on these bytes.
    const before = (value: unknown): string => {
      if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
      if (Array.isArray(value)) return `[${value.map(before).join(",")}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${before(v)}`).join(",")}}`;
    };
    const odd = {
      "10": 1,
      "9": [undefined, () => 1, Symbol("s"), Number.NaN, -0, 1e21, '\u2028"q"'],
      B: { é: true, e: false, "": null, Z: { inner: [[], {}] } },
      a: new Date(0),
      ü: "zeile\nzwei",
      gone: undefined,
    };
    for (const value of [odd, [odd, odd.B], {}, [], "text", 3, true, null, undefined]) {
      expect(canonicalJson(value)).toBe(before(value));
    }
    expect(canonicalJson({ b: 1, "": 2, B: 3 })).toBe('{"":2,"B":3,"b":1}');
  });
});

describe("definitionKey", () => {
  it("is the same whatever the member order, provenance, on/off switch or description", () => {
    const moved = {
      disabled: true,
      description: "Files of the project",
      ...server,
      env: { A: "1", B: "2" },
      source: { file: "/p/.mcp.json", key: "mcpServers.files" },
      scope: "project",
      layers: [{ file: "/p/.mcp.json", key: "mcpServers.files" }],
    };
    expect(definitionKey(moved)).toBe(definitionKey(server));
    expect(definitionKey(server)).toBe(
      '{"args":["server.js"],"command":"node","env":{"A":"1","B":"2"},"lifecycle":"lazy","name":"files","protocol":"legacy","transport":"stdio"}',
    );
  });

  it("changes with anything the server runs, a richer type's own members included", () => {
    expect(definitionKey({ ...server, args: ["other.js"] })).not.toBe(definitionKey(server));
    expect(definitionKey({ ...server, env: { ...server.env, C: "3" } })).not.toBe(definitionKey(server));
    const withToken = { ...server, bearerToken: "!pass show mcp" };
    expect(definitionKey(withToken)).not.toBe(definitionKey(server));
  });
});
