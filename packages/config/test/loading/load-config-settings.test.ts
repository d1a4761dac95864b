/**
 * loadConfig: disabling and re-enabling servers across scopes, settings merged
 * key by key with provenance and bad ones dropped by name, and the isolated
 * inline config.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names, stdio } from "../world.js";

describe("loadConfig: disabling", () => {
  it("merges disabledMcpServers across scopes and honours per-entry disabled", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      disabledMcpServers: ["a"],
      mcpServers: { a: stdio("a"), b: stdio("b"), c: stdio("c") },
    });
    await w.write(path.join(w.project, ".mcp.json"), {
      disabledMcpServers: ["b"],
      mcp: { servers: [{ name: "d", command: "d", disabled: true }] },
    });
    const config = await w.load();
    const disabled = config.servers.filter((s) => s.disabled).map((s) => s.name);
    expect(disabled.sort()).toEqual(["a", "b", "d"]);
    expect(byName(config, "c").disabled).toBeUndefined();
  });

  it("does not let a project file re-enable a server disabled in a user-level file", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      disabledMcpServers: ["listed"],
      mcpServers: { flagged: { command: "f", disabled: true }, listed: stdio("l") },
    });
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: { flagged: { disabled: false }, listed: { command: "l2", disabled: false } },
    });
    const config = await w.load();
    expect(byName(config, "flagged").disabled).toBe(true);
    expect(byName(config, "listed").disabled).toBe(true);
    expect(messages(config, "warning")).toEqual([
      'mcp-adapter.json: mcpServers.flagged.disabled: server "flagged" is disabled in a user-level config; a project file cannot re-enable it',
      'mcp-adapter.json: mcpServers.listed.disabled: server "listed" is disabled in a user-level config; a project file cannot re-enable it',
    ]);
  });

  it("applies a disabled-only override onto a server defined in a lower file", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { a: stdio("a", { args: ["1"] }) } });
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), { mcpServers: { a: { disabled: true } } });
    const config = await w.load();
    expect(byName(config, "a")).toMatchObject({ command: "a", args: ["1"], disabled: true });
    expect(byName(config, "a").source.file).toBe(path.join(w.project, ".mcp.json"));
    expect(byName(config, "a").layers.map((l) => path.basename(l.file))).toEqual([
      ".mcp.json",
      "mcp-adapter.json",
    ]);
  });
});

describe("loadConfig: enabling", () => {
  it("lets an explicit disabled: false in a later project layer lift a project disabledMcpServers entry", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      disabledMcpServers: ["a"],
      mcpServers: { a: stdio("a") },
    });
    expect(byName(await w.load(), "a").disabled).toBe(true);
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: { a: { disabled: false } },
    });
    expect(byName(await w.load(), "a").disabled).toBe(false);
  });
});

describe("loadConfig: settings", () => {
  it("merges settings key by key with provenance", async () => {
    await using w = await createWorld();
    const user = await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      settings: { toolPrefix: "short", idleTimeout: 5, trace: { enabled: true }, directTools: "auto" },
    });
    const project = await w.write(path.join(w.project, ".mcp.json"), { settings: { idleTimeout: 0 } });
    const config = await w.load();
    expect(config.settings).toEqual({
      toolPrefix: "short",
      idleTimeout: 0,
      trace: { enabled: true },
      directTools: "auto",
    });
    expect(config.settingSources.toolPrefix).toEqual({ file: user, key: "settings.toolPrefix" });
    expect(config.settingSources.idleTimeout).toEqual({ file: project, key: "settings.idleTimeout" });
  });

  it("drops only the bad setting, naming it", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      settings: { collapsedResultLines: 9, hostConfigDiscovery: "maybe", scriptMode: true },
    });
    const config = await w.load();
    expect(config.settings).toEqual({ scriptMode: true });
    expect(messages(config, "error")).toEqual([
      expect.stringMatching(/^\.mcp\.json: settings\.collapsedResultLines: /),
      expect.stringMatching(/^\.mcp\.json: settings\.hostConfigDiscovery: /),
    ]);
  });
  it("validates shared settings with core's schemas: detailsMaxBytes 0 is kept, a misspelt limit is named", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      settings: { outputGuard: { detailsMaxBytes: 0 }, toonEncode: ["docs"] },
    });
    await w.write(path.join(w.project, ".mcp.json"), {
      settings: { approveTools: "always", toonEncode: "docs" },
      mcpServers: { docs: { ...stdio("docs"), approveTools: ["delete_*", 3] }, ok: stdio("ok") },
    });
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      settings: { outputGuard: { maxbytes: 100 } },
    });
    const config = await w.load();
    expect(config.settings).toEqual({ outputGuard: { detailsMaxBytes: 0 }, toonEncode: ["docs"] });
    expect(names(config)).toEqual(["ok"]);
    expect(messages(config, "error")).toEqual(
      expect.arrayContaining([
        '.mcp.json: settings.approveTools: expected true, false, "destructive", "writes" or a list of tool name globs',
        ".mcp.json: settings.toonEncode: expected true, false or a list of server names",
        expect.stringMatching(/^\.mcp\.json: mcpServers\.docs\.approveTools/),
        'mcp-adapter.json: settings.outputGuard: Unrecognized key: "maxbytes"',
      ]),
    );
  });
});

describe("loadConfig: inline config", () => {
  it("is an isolated snapshot: no files merged, and later changes to the object do not leak in", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { fromFile: stdio("f") } });
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      imports: ["cursor"],
      mcpServers: { g: stdio("g") },
    });
    await w.write(path.join(w.home, ".cursor", "mcp.json"), { mcpServers: { cursor: stdio("c") } });
    const inline = {
      mcpServers: { docs: { url: "https://mcp.example.com/mcp", lifecycle: "eager", args: [] as string[] } },
    };
    const first = await w.load({ config: inline });
    inline.mcpServers.docs.url = "https://evil.example/mcp";
    const second = await w.load({ config: inline });
    expect(names(first)).toEqual(["docs"]);
    expect(first.sources).toEqual([]);
    expect(byName(first, "docs")).toMatchObject({
      url: "https://mcp.example.com/mcp",
      lifecycle: "eager",
      scope: "inline",
    });
    expect(byName(second, "docs").url).toBe("https://evil.example/mcp");
    expect(first.projectFilesRead).toBe(false);
  });
  it("reports an inline config that is not plain data", async () => {
    await using w = await createWorld();
    const config = await w.load({ config: { mcpServers: { a: { command: "a", run: () => 1 } } } });
    expect(config.servers).toEqual([]);
    expect(messages(config, "error")).toEqual(["<inline config>: inline config must be plain JSON data"]);
  });
});
