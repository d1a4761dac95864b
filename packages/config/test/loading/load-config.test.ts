// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * loadConfig: the six sources and their precedence, an explicit config path,
 * and the shapes a server entry may take (mcpServers and the mcp.servers
 * array), with every bad field named by file and field.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names, stdio } from "../world.js";

describe("loadConfig: sources and precedence", () => {
  it("reads the six sources and lets the higher one win per server name, keeping the others", async () => {
    await using w = await createWorld();
    const files = [
      path.join(w.home, ".config", "mcp", "mcp.json"),
      path.join(w.home, ".agents", "mcp.json"),
      path.join(w.home, ".agents", "mcp", "mcp.json"),
      path.join(w.agentDir, "mcp-adapter.json"),
      path.join(w.project, ".mcp.json"),
      path.join(w.project, ".pi", "mcp-adapter.json"),
    ];
    for (const [index, file] of files.entries()) {
      await w.write(file, { mcpServers: { shared: stdio(`cmd-${index}`), [`only-${index}`]: stdio("x") } });
    }
    const config = await w.load();
    expect(config.problems).toEqual([]);
    expect(byName(config, "shared").command).toBe("cmd-5");
    expect(byName(config, "shared").source).toEqual({ file: files[5], key: "mcpServers.shared" });
    expect(names(config)).toEqual(["only-0", "only-1", "only-2", "only-3", "only-4", "only-5", "shared"]);
    expect(byName(config, "only-2").source.file).toBe(files[2]);
    expect(config.sources).toEqual(files);
  });

  it("finds the agent dir through PI_CODING_AGENT_DIR", async () => {
    await using w = await createWorld();
    const custom = w.dir.join("custom-agent");
    await w.write(path.join(custom, "mcp-adapter.json"), { mcpServers: { a: stdio("a") } });
    const config = await w.load({
      environment: { agentDir: undefined, env: { PI_CODING_AGENT_DIR: custom } },
    });
    expect(names(config)).toEqual(["a"]);
  });

  it("never reads Pi's own mcp.json files", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp.json"), { mcpServers: { native: stdio("n") } });
    await w.write(path.join(w.project, ".pi", "mcp.json"), { mcpServers: { nativeProject: stdio("n") } });
    const config = await w.load();
    expect(config.servers).toEqual([]);
    expect(config.sources).toEqual([]);
    expect(config.piNativeConfigs).toEqual([
      path.join(w.agentDir, "mcp.json"),
      path.join(w.project, ".pi", "mcp.json"),
    ]);
  });

  it("lets an explicit config path outrank every other file while still merging them", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: { a: stdio("project"), b: stdio("b") },
    });
    const explicit = await w.write(w.dir.join("elsewhere", "custom.json"), {
      mcpServers: { a: stdio("explicit") },
    });
    const config = await w.load({ configPath: "../../elsewhere/custom.json" });
    expect(byName(config, "a").command).toBe("explicit");
    expect(byName(config, "a").scope).toBe("explicit");
    expect(byName(config, "b").command).toBe("b");
    expect(config.sources.at(-1)).toBe(explicit);
  });

  it("reports a missing explicit config path", async () => {
    await using w = await createWorld();
    const config = await w.load({ configPath: "nope.json" });
    expect(messages(config, "error")).toEqual(["nope.json: config file not found"]);
  });
});

describe("loadConfig: shapes", () => {
  it("reads the mcp.servers array form beside mcpServers", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { one: stdio("one") },
      mcp: {
        servers: [
          { name: "two", transport: "stdio", command: "two", args: ["--x"] },
          { name: "three", transport: "streamable", url: "https://mcp.example.com/mcp" },
        ],
      },
    });
    const config = await w.load();
    expect(config.problems).toEqual([]);
    expect(names(config)).toEqual(["one", "three", "two"]);
    expect(byName(config, "three")).toMatchObject({ transport: "http", url: "https://mcp.example.com/mcp" });
    expect(byName(config, "two").source.key).toBe("mcp.servers.0");
  });

  it("rejects an array entry mixing command and url, and a duplicate name across shapes, loading the rest", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { dup: stdio("first") },
      mcp: {
        servers: [
          { name: "mixed", transport: "stdio", command: "x", url: "https://x.example" },
          { name: "dup", command: "second" },
          { name: "fine", command: "fine" },
          { transport: "stdio", command: "nameless" },
        ],
      },
    });
    const config = await w.load();
    expect(names(config)).toEqual(["dup", "fine"]);
    expect(byName(config, "dup").command).toBe("first");
    expect(messages(config, "error")).toEqual([
      '.mcp.json: mcp.servers.1: duplicate server name "dup" (already defined in this file); this entry is skipped',
      ".mcp.json: mcp.servers.3.name: each server needs a string name",
      ".mcp.json: mcp.servers.0.command: set only one of command, url and socket (found command, url)",
    ]);
  });

  it("names file and field for wrong types and unknown transports", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        badArgs: { command: "x", args: "not-a-list" },
        badTransport: { type: "carrier-pigeon", command: "x" },
        badUrl: { url: "ftp://example.com" },
        ok: stdio("ok"),
      },
    });
    const config = await w.load();
    expect(names(config)).toEqual(["ok"]);
    const errors = messages(config, "error");
    expect(errors).toContainEqual(expect.stringMatching(/^\.mcp\.json: mcpServers\.badArgs\.args: /));
    expect(errors).toContain(
      '.mcp.json: mcpServers.badTransport.type: unknown transport "carrier-pigeon" (expected stdio, http, sse or socket)',
    );
    expect(errors).toContain(
      '.mcp.json: mcpServers.badUrl.url: expected an http(s) URL, found "ftp://example.com"',
    );
  });

  it("keeps unknown keys and reports them as warnings", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      futureKey: 1,
      mcpServers: { a: { command: "a", alwaysAllow: ["x"], oauth: { clientId: "c", colour: "red" } } },
      settings: { toolPrefix: "short", madeUp: true },
    });
    const config = await w.load();
    expect(byName(config, "a").extra).toEqual({ alwaysAllow: ["x"] });
    expect(config.settings).toEqual({ toolPrefix: "short" });
    expect(config.settingsExtra).toEqual({ madeUp: true });
    expect(messages(config, "warning")).toEqual([
      ".mcp.json: futureKey: unknown top-level key, ignored",
      ".mcp.json: mcpServers.a.alwaysAllow: unknown option, kept but not used",
      ".mcp.json: mcpServers.a.oauth.colour: unknown option, ignored",
      ".mcp.json: settings.madeUp: unknown setting, kept but not used",
    ]);
  });

  it("maps every per-server option onto the definition", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        full: {
          url: "https://mcp.example.com/${TENANT}/mcp",
          headers: { "X-Key": "!pass show key" },
          lifecycle: "keep-alive",
          idleTimeout: 3,
          requestTimeoutMs: 5000,
          maxTotalTimeoutMs: 60000,
          tasks: "always",
          taskTimeoutMs: 600000,
          protocol: "auto",
          toolPrefix: "none",
          directTools: "search",
          includeTools: ["a*"],
          excludeTools: ["b"],
          approveTools: "destructive",
          searchKeywords: { "*": ["gh"] },
          bearerToken: "!echo t",
          oauth: { clientId: "id", clientSecret: "!echo s", skipIssuerMetadataValidation: true },
          oauthClientName: "Codex",
          debug: true,
          description: "Issues of the team",
        },
        local: {
          command: "srv",
          directTools: "auto",
          env: { A: "${HOME}" },
          literalEnv: { B: "${raw}" },
          inheritEnv: false,
          cwd: "/tmp",
        },
        sock: { socket: "/run/mux.sock" },
      },
    });
    const config = await w.load();
    expect(config.problems).toEqual([]);
    expect(byName(config, "full")).toMatchObject({
      transport: "http",
      url: "https://mcp.example.com/${TENANT}/mcp",
      headers: { "X-Key": "!pass show key" },
      lifecycle: "keep-alive",
      idleTimeoutMin: 3,
      requestTimeoutMs: 5000,
      maxTotalTimeoutMs: 60000,
      tasks: "always",
      taskTimeoutMs: 600000,
      protocol: "auto",
      toolPrefix: "none",
      directTools: true,
      directToolsExposure: "search",
      approveTools: "destructive",
      bearerToken: "!echo t",
      oauth: { clientId: "id", clientSecret: "!echo s", skipIssuerMetadataValidation: true },
      oauthClientName: "Codex",
      debug: true,
      description: "Issues of the team",
    });
    expect(byName(config, "local")).toMatchObject({
      transport: "stdio",
      directTools: "auto",
      inheritEnv: false,
      literalEnv: { B: "${raw}" },
    });
    expect(byName(config, "sock").transport).toBe("socket");
  });
});
