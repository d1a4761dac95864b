import { describe, expect, it } from "vitest";
import { extensionServers, loadConfig, withExtensionServers } from "../../src/index.js";

const fromPi = (name: string, config: unknown) => ({
  name,
  config,
  via: "pi" as const,
  registeredBy: "/ext/jira.ts",
});

describe("servers other extensions register", () => {
  it("become lazy servers of scope extension, with Pi's fields read in their meaning here", () => {
    const { servers, problems } = extensionServers(
      [
        fromPi("docs", { url: "https://mcp.example.com/mcp", timeout: 12, exposure: "deferred" }),
        fromPi("off", { command: "x", enabled: false }),
        fromPi("some", {
          command: "y",
          exposure: "hidden",
          toolExposure: { search: "direct", fetch: "codemode", admin: "hidden" },
        }),
      ],
      [],
    );
    expect(problems).toEqual([]);
    expect(servers.map((s) => [s.name, s.scope, s.lifecycle])).toEqual([
      ["docs", "extension", "lazy"],
      ["off", "extension", "lazy"],
      ["some", "extension", "lazy"],
    ]);
    expect(servers[0]).toMatchObject({
      transport: "http",
      requestTimeoutMs: 12_000,
      directToolsExposure: "search",
    });
    expect(servers[1]?.disabled).toBe(true);
    expect(servers[2]).toMatchObject({ directTools: ["search"], includeTools: ["search", "fetch"] });
    expect(servers[0]?.source.file).toBe("<registered by extension /ext/jira.ts>");
  });

  it("lose to a file-configured server of the same name, reported as overridden", () => {
    const result = extensionServers(
      [fromPi("docs", { command: "z" })],
      [{ name: "docs", source: { file: "/home/u/.pi/agent/mcp-adapter.json", key: "mcpServers.docs" } }],
    );
    expect(result.servers).toEqual([]);
    expect(result.overridden).toEqual([
      {
        name: "docs",
        registeredBy: "extension /ext/jira.ts",
        configuredIn: "/home/u/.pi/agent/mcp-adapter.json",
      },
    ]);
    expect(result.problems[0]?.message).toBe(
      'overridden: "docs" is defined in /home/u/.pi/agent/mcp-adapter.json, which takes precedence',
    );
  });

  it("are skipped when invalid, with an error naming the extension (or saying the event does not tell)", () => {
    const result = extensionServers(
      [
        fromPi("a", { command: "x", lifecycle: "sometimes" }),
        { name: "b", config: { url: "ftp://x" }, via: "event-bus" },
      ],
      [],
    );
    expect(result.servers).toEqual([]);
    expect(result.problems.map((p) => `${p.file} ${p.field}`)).toEqual([
      "<registered by extension /ext/jira.ts> mcpServers.a.lifecycle",
      "<registered by an extension over pi-mcp-adapter:runtime-register:v1 (the event does not say which)> mcpServers.b.url",
    ]);
  });

  it("join a loaded config below its files, and change its hash", async () => {
    const config = await loadConfig({
      cwd: "/nonexistent",
      config: { mcpServers: { files: { command: "f" } } },
    });
    const joined = withExtensionServers(config, [fromPi("reg", { command: "r" })]);
    expect(joined.servers.map((s) => s.name)).toEqual(["files", "reg"]);
    expect(joined.configHash).not.toBe(config.configHash);
    expect(withExtensionServers(config, [])).toBe(config);
  });

  it("are the lowest row of loadConfig's sources: a file's name wins, the rest join below the files", async () => {
    const files = { mcpServers: { docs: { command: "file" }, other: { command: "o" } } };
    const plain = await loadConfig({ cwd: "/nonexistent", config: files });
    const config = await loadConfig({
      cwd: "/nonexistent",
      config: files,
      registrations: [fromPi("docs", { command: "z" }), fromPi("reg", { command: "r" })],
    });
    expect(config.servers.map((s) => [s.name, s.command])).toEqual([
      ["docs", "file"],
      ["other", "o"],
      ["reg", "r"],
    ]);
    expect(config.problems.map((p) => p.message)).toEqual([
      'overridden: "docs" is defined in <inline config>, which takes precedence',
    ]);
    expect(config.configHash).not.toBe(plain.configHash);
  });
});
