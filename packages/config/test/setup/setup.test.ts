import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  addServers,
  adoptHostImports,
  CURATED_SERVERS,
  createProjectConfig,
  findCuratedServer,
  formatSetupOverview,
  initHostImports,
  readSetupOverview,
} from "../../src/setup.js";
import { createWorld, names, type World } from "../world.js";

const environment = (w: World) => ({
  home: w.home,
  agentDir: w.agentDir,
  env: {},
  platform: "linux" as const,
});

async function withHosts(w: World) {
  const cursor = await w.write(path.join(w.home, ".cursor", "mcp.json"), {
    mcpServers: { "cursor-fs": { command: "cursor-fs-mcp", args: ["--root", "/"] } },
  });
  const desktop = await w.write(path.join(w.home, ".config", "Claude", "claude_desktop_config.json"), {
    mcpServers: { "desktop-notes": { command: "notes-mcp" } },
    globalShortcut: "Ctrl+Space",
  });
  return { cursor, desktop };
}

const how = {
  adopt: (host: string) => `adopt ${host}`,
  add: (id: string) => `add ${id}`,
  createMcpJson: "create",
  copyPiServers: (file: string) => `copy ${file}`,
};

describe("setup", () => {
  it("finds host configs with their servers, every config path in order, and Pi's own mcp.json", async () => {
    await using w = await createWorld();
    const { cursor, desktop } = await withHosts(w);
    await w.write(path.join(w.agentDir, "mcp.json"), {
      mcpServers: { native: { url: "https://n.example/mcp" } },
    });
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: {} });

    const overview = await readSetupOverview({ cwd: w.project, environment: environment(w) });
    expect(overview.hosts).toEqual([
      { host: "cursor", file: cursor, scope: "user", servers: ["cursor-fs"], active: false },
      { host: "claude-desktop", file: desktop, scope: "user", servers: ["desktop-notes"], active: false },
    ]);
    expect(overview.piNative).toEqual([
      {
        file: path.join(w.agentDir, "mcp.json"),
        target: path.join(w.agentDir, "mcp-adapter.json"),
        servers: { native: { url: "https://n.example/mcp" } },
      },
    ]);
    const own = overview.paths.filter((p) => p.kind === "user" || p.kind === "project");
    expect(own.map((p) => [p.file, p.exists])).toEqual([
      [path.join(w.home, ".config", "mcp", "mcp.json"), false],
      [path.join(w.home, ".agents", "mcp.json"), false],
      [path.join(w.home, ".agents", "mcp", "mcp.json"), false],
      [path.join(w.agentDir, "mcp-adapter.json"), false],
      [path.join(w.project, ".mcp.json"), true],
      [path.join(w.project, ".pi", "mcp-adapter.json"), false],
    ]);
    // Host files sit below every other source, so they come first.
    expect(overview.paths[0]?.kind).toBe("import");

    const text = formatSetupOverview(overview, how);
    expect(text).toContain(`- cursor (${cursor}): cursor-fs — not loaded; adopt: adopt cursor`);
    expect(text).toContain(`[x] ${path.join(w.project, ".mcp.json")} — project-local shared`);
    expect(text).toContain("- deepwiki: DeepWiki");
    expect(text).toContain(`copy into ${path.join(w.agentDir, "mcp-adapter.json")}`);
  });

  it("adopts hosts into imports of the adapter's own file, keeping other keys, and a second run changes nothing", async () => {
    await using w = await createWorld();
    const { cursor } = await withHosts(w);
    const hostText = await readFile(cursor, "utf8");
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      settings: { toolPrefix: "short" },
      mcpServers: { mine: { command: "mine" } },
    });
    const first = await adoptHostImports(file, ["cursor", "claude-desktop"], { discovery: true });
    expect(first).toMatchObject({
      added: ["cursor", "claude-desktop"],
      discoveryEnabled: true,
      changed: true,
    });
    const written = await readFile(file, "utf8");
    expect(JSON.parse(written)).toEqual({
      settings: { toolPrefix: "short", hostConfigDiscovery: "on" },
      mcpServers: { mine: { command: "mine" } },
      imports: ["cursor", "claude-desktop"],
    });
    const second = await adoptHostImports(file, ["cursor"], { discovery: true });
    expect(second).toMatchObject({ added: [], discoveryEnabled: false, changed: false });
    expect(await readFile(file, "utf8")).toBe(written);
    expect(await readFile(cursor, "utf8")).toBe(hostText);
    expect(names(await w.load())).toEqual(["cursor-fs", "desktop-notes", "mine"]);
  });

  it("init imports the hosts it finds into the agent dir file and is idempotent", async () => {
    await using w = await createWorld();
    await withHosts(w);
    const first = await initHostImports({ cwd: w.project, environment: environment(w) });
    expect(first.changed).toBe(true);
    expect(first.added).toEqual(["cursor", "claude-desktop"]);
    expect(first.file).toBe(path.join(w.agentDir, "mcp-adapter.json"));
    expect(JSON.parse(await readFile(first.file, "utf8"))).toEqual({ imports: ["cursor", "claude-desktop"] });
    const second = await initHostImports({ cwd: w.project, environment: environment(w) });
    expect(second).toMatchObject({ changed: false, added: [] });
    expect(
      (await readSetupOverview({ cwd: w.project, environment: environment(w) })).hosts.every((h) => h.active),
    ).toBe(true);
  });

  it("init with nothing to import writes no file", async () => {
    await using w = await createWorld();
    const result = await initHostImports({ cwd: w.project, environment: environment(w) });
    expect(result).toMatchObject({ changed: false, hosts: [] });
    await expect(readFile(result.file, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses to rewrite an adapter file that is not valid JSON", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), '{ "imports": [');
    await expect(adoptHostImports(file, ["cursor"])).rejects.toThrow(
      /Not changing .*mcp-adapter\.json.*fix the file first/,
    );
    expect(await readFile(file, "utf8")).toBe('{ "imports": [');
  });

  it("creates a minimal .mcp.json once and adds curated entries without overwriting a user's definition", async () => {
    await using w = await createWorld();
    const file = path.join(w.project, ".mcp.json");
    expect(await createProjectConfig(file)).toEqual({ file, created: true });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ mcpServers: {} });
    expect(await createProjectConfig(file)).toEqual({ file, created: false });

    const deepwiki = findCuratedServer("DeepWiki");
    expect(deepwiki?.entry).toEqual({ url: "https://mcp.deepwiki.com/mcp" });
    await w.write(file, { mcpServers: { github: { command: "my-github" } } });
    const github = CURATED_SERVERS.find((s) => s.id === "github");
    const added = await addServers(file, { deepwiki: deepwiki!.entry, github: github!.entry });
    expect(added).toMatchObject({ added: ["deepwiki"], kept: ["github"], changed: true });
    const config = await w.load();
    expect(names(config)).toEqual(["deepwiki", "github"]);
    expect(config.servers.find((s) => s.name === "github")?.command).toBe("my-github");
    expect(config.problems.filter((p) => p.severity !== "info")).toEqual([]);
  });

  it("every curated entry is a valid server definition", async () => {
    await using w = await createWorld();
    const file = path.join(w.agentDir, "mcp-adapter.json");
    await addServers(file, Object.fromEntries(CURATED_SERVERS.map((s) => [s.id, s.entry])));
    const config = await w.load();
    expect(names(config)).toEqual(CURATED_SERVERS.map((s) => s.id).sort());
    expect(config.problems).toEqual([]);
  });

  it("names an invalid entry instead of writing it", async () => {
    await using w = await createWorld();
    const file = path.join(w.agentDir, "mcp-adapter.json");
    await expect(addServers(file, { bad: { command: 1 } })).rejects.toThrow(
      /Not adding "bad": .*mcpServers\.bad\.command/,
    );
  });
});
