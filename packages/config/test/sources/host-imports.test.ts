// biome-ignore-all lint/suspicious/noTemplateCurlyInString: host configs use ${VAR} syntax literally
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostConfigFiles } from "../../src/hosts/host-locations.js";
import { type ConfigEnvironment, defaultConfigEnvironment, type HostId } from "../../src/index.js";
import { byName, createWorld, messages, names, stdio, type World } from "../world.js";

const fixture = (name: string) =>
  readFile(new URL(`../fixtures/hosts/${name}.fixture`, import.meta.url), "utf8");

/** Writes every host's fixture at its Linux location (user scope) for the world's home. */
async function installHostFixtures(w: World): Promise<void> {
  await w.write(path.join(w.home, ".cursor", "mcp.json"), await fixture("cursor-mcp.json"));
  await w.write(
    path.join(w.home, ".claude.json"),
    (await fixture("claude.json")).replace("__PROJECT__", w.project),
  );
  await w.write(
    path.join(w.home, ".config", "Claude", "claude_desktop_config.json"),
    await fixture("claude_desktop_config.json"),
  );
  await w.write(path.join(w.home, ".config", "opencode", "opencode.jsonc"), await fixture("opencode.jsonc"));
  await w.write(path.join(w.home, ".config", "Code", "User", "mcp.json"), await fixture("vscode-mcp.json"));
  await w.write(
    path.join(w.home, ".codeium", "windsurf", "mcp_config.json"),
    await fixture("windsurf-mcp_config.json"),
  );
  await w.write(path.join(w.home, ".codex", "config.toml"), await fixture("codex-config.toml"));
}

const userConfig = (w: World) => path.join(w.home, ".config", "mcp", "mcp.json");

describe("host imports", () => {
  it("maps each host's documented format onto server definitions", async () => {
    await using w = await createWorld();
    await installHostFixtures(w);
    await w.write(userConfig(w), {
      imports: ["cursor", "claude-code", "claude-desktop", "opencode", "vscode", "windsurf", "codex"],
    });
    const config = await w.load();
    expect(messages(config, "error")).toEqual([]);
    expect(names(config)).toEqual(
      [
        "cursor-local",
        "cursor-remote",
        "claude-user",
        "claude-local",
        "claude-sse",
        "desktop-filesystem",
        "oc-local",
        "oc-remote",
        "vs-stdio",
        "vs-http",
        "ws-local",
        "ws-remote",
        "ws-off",
        "codex-docs",
        "codex-remote",
        "codex-off",
      ].sort(),
    );
    expect(byName(config, "cursor-local")).toMatchObject({
      transport: "stdio",
      command: "npx",
      env: { API_KEY: "value" },
    });
    expect(byName(config, "cursor-remote")).toMatchObject({
      transport: "http",
      url: "https://cursor.example.com/mcp",
    });
    expect(byName(config, "claude-local")).toMatchObject({
      transport: "http",
      headers: { Authorization: "Bearer ${TOKEN}" },
      source: {
        file: path.join(w.home, ".claude.json"),
        key: `projects.${w.project}.mcpServers.claude-local`,
      },
    });
    expect(byName(config, "claude-sse").transport).toBe("sse");
    expect(byName(config, "oc-local")).toMatchObject({
      command: "bun",
      args: ["x", "my-mcp-command"],
      env: { MY_ENV_VAR: "my_env_var_value" },
    });
    expect(byName(config, "oc-remote")).toMatchObject({ transport: "http", disabled: true });
    expect(byName(config, "vs-stdio").args).toEqual([`${w.project}/server.js`]);
    expect(byName(config, "ws-remote")).toMatchObject({
      url: "https://windsurf.example.com/mcp",
      headers: { "X-Key": "${env:WS_KEY}" },
    });
    expect(byName(config, "ws-off").disabled).toBe(true);
    expect(byName(config, "codex-docs")).toMatchObject({
      command: "npx",
      cwd: "/srv/docs",
      env: { API_KEY: "value" },
      requestTimeoutMs: 45000,
      includeTools: ["search"],
    });
    expect(byName(config, "codex-remote")).toMatchObject({
      bearerTokenEnv: "CODEX_TOKEN",
      headers: { "X-Team": "core", "X-Key": "${CODEX_KEY}" },
    });
    expect(byName(config, "codex-off").disabled).toBe(true);
    expect(byName(config, "codex-off").scope).toBe("import");
    expect(messages(config, "warning")).toEqual([
      "mcp.json: servers.vs-stdio: uses VS Code ${input:…} prompts, which the adapter cannot ask for; set those values directly",
    ]);
    expect(config.problems.some((p) => p.file.includes("opencode") || p.file.includes(".claude.json"))).toBe(
      false,
    );
  });

  it("puts imported servers below every shared and adapter source", async () => {
    await using w = await createWorld();
    await installHostFixtures(w);
    await w.write(userConfig(w), { imports: ["cursor"], mcpServers: { "cursor-local": stdio("mine") } });
    const config = await w.load();
    expect(byName(config, "cursor-local").command).toBe("mine");
    expect(byName(config, "cursor-remote").scope).toBe("import");
  });

  it("reads project host files (.cursor, .vscode) only for trusted, approved projects", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".vscode", "mcp.json"), await fixture("vscode-mcp.json"));
    await w.write(userConfig(w), { imports: ["vscode"] });
    expect(names(await w.load({ trust: { trusted: false } }))).toEqual([]);
    const pending = await w.load({ trust: { trusted: true } });
    expect(names(pending)).toEqual([]);
    expect(pending.pendingProjectServers.map((p) => p.name).sort()).toEqual(["vs-http", "vs-stdio"]);
    expect(names(await w.load({ trust: { trusted: true, confirm: async () => true } }))).toEqual([
      "vs-http",
      "vs-stdio",
    ]);
  });

  it("hostConfigDiscovery: off detects nothing, prompt reports without loading, on loads", async () => {
    await using w = await createWorld();
    await installHostFixtures(w);
    const off = await w.load();
    expect(off.servers).toEqual([]);
    expect(off.detectedHostConfigs).toEqual([]);

    await w.write(userConfig(w), { settings: { hostConfigDiscovery: "prompt" } });
    const prompt = await w.load();
    expect(prompt.servers).toEqual([]);
    expect(prompt.detectedHostConfigs.map((d) => d.host)).toEqual([
      "cursor",
      "claude-code",
      "claude-desktop",
      "opencode",
      "vscode",
      "windsurf",
      "codex",
    ]);
    expect(prompt.detectedHostConfigs.find((d) => d.host === "codex")?.servers).toEqual([
      "codex-docs",
      "codex-remote",
      "codex-off",
    ]);
    const codexNotice = prompt.problems.find(
      (p) => p.severity === "info" && p.message.startsWith("codex config"),
    );
    expect(codexNotice?.message).toBe(
      'codex config with 3 server(s) (codex-docs, codex-remote, codex-off) detected, not loaded: set settings.hostConfigDiscovery to "on" or add "codex" to imports to use it (/mcp-adapter setup or pi-mcp-adapter init does that)',
    );

    await w.write(userConfig(w), { settings: { hostConfigDiscovery: "on" } });
    expect((await w.load()).servers).toHaveLength(16);

    await w.write(userConfig(w), {});
    await w.write(path.join(w.project, ".mcp.json"), { settings: { hostConfigDiscovery: "on" } });
    const fromProject = await w.load();
    expect(fromProject.servers).toEqual([]);
    expect(messages(fromProject, "warning")).toEqual([
      ".mcp.json: settings.hostConfigDiscovery: this setting is honoured only in user-level config files, ignored here",
    ]);
  });

  it("reports a broken host file with line and column, and still loads the other hosts", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".codex", "config.toml"), '[mcp_servers.x]\ncommand = "x"\nargs = [\n');
    await w.write(path.join(w.home, ".cursor", "mcp.json"), '{ "mcpServers": { "a": { "command": "a" } ');
    await w.write(
      path.join(w.home, ".codeium", "windsurf", "mcp_config.json"),
      await fixture("windsurf-mcp_config.json"),
    );
    await w.write(userConfig(w), { imports: ["codex", "cursor", "windsurf", "notepad"] });
    const config = await w.load();
    expect(names(config)).toEqual(["ws-local", "ws-off", "ws-remote"]);
    const errors = messages(config, "error");
    expect(errors).toContainEqual(
      expect.stringMatching(/^config\.toml: invalid TOML at line \d+ column \d+: /),
    );
    expect(errors).toContainEqual(expect.stringMatching(/^mcp\.json: invalid JSON at line 1 column \d+: /));
    expect(errors).toContain(
      'mcp.json: imports.3: unknown host "notepad" (expected one of cursor, claude-code, claude-desktop, opencode, vscode, windsurf, codex)',
    );
  });
});

describe("host config locations", () => {
  const env = (platform: NodeJS.Platform, extra: Record<string, string> = {}): ConfigEnvironment =>
    defaultConfigEnvironment({ home: "/h", agentDir: "/h/.pi/agent", platform, env: extra });
  const files = (host: HostId, e: ConfigEnvironment) =>
    hostConfigFiles(host, e, "/p").map((f) => `${f.scope}:${f.file}`);

  it("knows each desktop app's per-OS directory", () => {
    expect(files("claude-desktop", env("darwin"))).toEqual([
      "user:/h/Library/Application Support/Claude/claude_desktop_config.json",
    ]);
    expect(files("claude-desktop", env("win32", { APPDATA: "/h/AppData/Roaming" }))).toEqual([
      "user:/h/AppData/Roaming/Claude/claude_desktop_config.json",
    ]);
    expect(files("claude-desktop", env("linux", { XDG_CONFIG_HOME: "/xdg" }))).toEqual([
      "user:/xdg/Claude/claude_desktop_config.json",
    ]);
    expect(files("vscode", env("darwin"))).toEqual([
      "user:/h/Library/Application Support/Code/User/mcp.json",
      "project:/p/.vscode/mcp.json",
    ]);
    expect(files("vscode", env("linux"))[0]).toBe("user:/h/.config/Code/User/mcp.json");
  });

  it("follows CODEX_HOME and lists project files for hosts that have them", () => {
    expect(files("codex", env("linux", { CODEX_HOME: "/c" }))).toEqual([
      "user:/c/config.toml",
      "project:/p/.codex/config.toml",
    ]);
    expect(files("cursor", env("win32"))).toEqual([
      "user:/h/.cursor/mcp.json",
      "project:/p/.cursor/mcp.json",
    ]);
    expect(files("windsurf", env("linux"))).toEqual(["user:/h/.codeium/windsurf/mcp_config.json"]);
    expect(files("claude-code", env("linux"))).toEqual(["user:/h/.claude.json"]);
    expect(files("opencode", env("linux"))).toContain("project:/p/.opencode/opencode.json");
  });
});
