/**
 * The CLI's setup side and its project-trust rule, run as users run them:
 * the built bin under plain Node, in a temp HOME that holds other hosts'
 * configs. Configured commands write a marker file if they ever start, so
 * "nothing was spawned" is checked on disk.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createTempDir,
  recordedPids,
  stdioFixtureServerPath,
  type TempDir,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** A user's machine in a temp dir: HOME (Pi's agent dir at its default place under it) and a project. */
async function machine() {
  const dir = await createTempDir();
  const home = dir.join("home");
  const project = dir.join("project");
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const key of ["PI_CODING_AGENT_DIR", "XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"]) delete env[key];
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, [cli, "--cwd", project, ...args], {
      encoding: "utf8",
      env,
      input: input ?? "",
    });
  return { dir, home, project, agentDir: path.join(home, ".pi", "agent"), run };
}

/** A stdio entry whose start (or `!command` secret) would leave `marker` behind. */
function markerServer(dir: TempDir, name: string) {
  const marker = dir.join(`${name}.started`);
  const secretMarker = dir.join(`${name}.secret-ran`);
  return {
    marker,
    secretMarker,
    entry: {
      command: process.execPath,
      args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "started")`],
      env: { TOKEN: `!touch ${secretMarker} && echo token` },
    },
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

describe("pi-mcp-adapter init / setup / status", () => {
  it("init --discover-host-configs adopts Cursor and Claude Desktop, status lists their servers, and nothing starts", async () => {
    const m = await machine();
    await using _dir = m.dir;
    const cursor = markerServer(m.dir, "cursor-tools");
    const desktop = markerServer(m.dir, "desktop-notes");
    const cursorFile = path.join(m.home, ".cursor", "mcp.json");
    const desktopFile = path.join(m.home, ".config", "Claude", "claude_desktop_config.json");
    await writeJson(cursorFile, { mcpServers: { "cursor-tools": cursor.entry } });
    await writeJson(desktopFile, {
      mcpServers: { "desktop-notes": desktop.entry },
      globalShortcut: "Alt+Space",
    });
    const hostTexts = [await readFile(cursorFile, "utf8"), await readFile(desktopFile, "utf8")];

    const init = m.run(["init", "--discover-host-configs"]);
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).toContain(`- cursor (${cursorFile}): cursor-tools`);
    expect(init.stdout).toContain(`- claude-desktop (${desktopFile}): desktop-notes`);
    const adapterFile = path.join(m.agentDir, "mcp-adapter.json");
    expect(init.stdout).toContain(
      `Wrote ${adapterFile}: imports += cursor, claude-desktop; settings.hostConfigDiscovery = "on".`,
    );
    const written = await readFile(adapterFile, "utf8");
    expect(JSON.parse(written)).toEqual({
      imports: ["cursor", "claude-desktop"],
      settings: { hostConfigDiscovery: "on" },
    });

    const status = m.run(["status"]);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain("MCP servers (2):");
    expect(status.stdout).toMatch(/- cursor-tools: not-connected/);
    expect(status.stdout).toMatch(/- desktop-notes: not-connected/);

    const again = m.run(["init", "--discover-host-configs"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`Nothing to change: ${adapterFile} is already up to date.`);
    expect(await readFile(adapterFile, "utf8")).toBe(written);
    const againJson = JSON.parse(m.run(["init", "--json"]).stdout);
    expect(againJson).toMatchObject({ file: adapterFile, changed: false, added: [] });

    const json = m.run(["status", "--json"]);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { servers: { name: string; state: string; source: string }[] };
    expect(parsed.servers.map((s) => [s.name, s.state])).toEqual([
      ["cursor-tools", "not-connected"],
      ["desktop-notes", "not-connected"],
    ]);
    expect(parsed).toMatchObject({ awaitingApproval: [], problems: [] });

    const list = m.run(["list"]);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain("cursor-tools: not listed yet");
    expect(JSON.parse(m.run(["tools", "--json"]).stdout).servers).toEqual([
      { name: "cursor-tools", listed: false, tools: [] },
      { name: "desktop-notes", listed: false, tools: [] },
    ]);

    const overview = m.run(["setup"]);
    expect(overview.stdout).toContain(`- cursor (${cursorFile}): cursor-tools — imported`);
    expect(overview.stdout).toContain(`[x] ${adapterFile} — adapter global override`);

    // No host file was written, and no configured command or !command ever ran.
    expect([await readFile(cursorFile, "utf8"), await readFile(desktopFile, "utf8")]).toEqual(hostTexts);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const file of [cursor.marker, cursor.secretMarker, desktop.marker, desktop.secretMarker]) {
      expect(existsSync(file), file).toBe(false);
    }
    // The markers do work: a command that starts servers leaves both behind.
    const reconnect = m.run(["reconnect", "cursor-tools"]);
    expect(reconnect.status).toBe(1);
    expect(existsSync(cursor.secretMarker)).toBe(true);
    expect(existsSync(cursor.marker)).toBe(true);
  }, 30_000);

  it("init with no host configs says so and writes nothing", async () => {
    const m = await machine();
    await using _dir = m.dir;
    const init = m.run(["init"]);
    expect(init.status).toBe(0);
    expect(init.stdout).toContain("No other hosts' MCP configs with servers found");
    expect(init.stdout).toContain("Nothing to change");
    expect(existsSync(path.join(m.agentDir, "mcp-adapter.json"))).toBe(false);
  });

  it("setup flags create .mcp.json, add known servers and adopt hosts; bad flags are usage errors", async () => {
    const m = await machine();
    await using _dir = m.dir;
    const mcpJson = path.join(m.project, ".mcp.json");
    const created = m.run(["setup", "--create-mcp-json"]);
    expect(created.status).toBe(0);
    expect(created.stdout).toContain(`Created ${mcpJson} with an empty mcpServers.`);
    expect(JSON.parse(await readFile(mcpJson, "utf8"))).toEqual({ mcpServers: {} });

    const added = m.run(["setup", "--add", "deepwiki", "--add", "github", "--project", "--json"]);
    expect(added.status).toBe(0);
    expect(JSON.parse(added.stdout).actions).toEqual([
      { action: "add", file: mcpJson, changed: true, added: ["deepwiki", "github"], kept: [] },
    ]);
    expect(JSON.parse(await readFile(mcpJson, "utf8")).mcpServers.deepwiki).toEqual({
      url: "https://mcp.deepwiki.com/mcp",
    });

    const adopt = m.run(["setup", "--adopt", "codex"]);
    expect(adopt.status).toBe(0);
    expect(adopt.stdout).toContain("imports += codex");
    expect(adopt.stdout).toContain("no codex config was found on this machine yet");

    // Pi's own mcp.json: its definitions are copied into the adapter's file; Pi's file stays as it was.
    const piFile = path.join(m.agentDir, "mcp.json");
    await writeJson(piFile, { mcpServers: { "pi-docs": { url: "https://docs.example/mcp" } } });
    const piText = await readFile(piFile, "utf8");
    const copied = m.run(["setup", "--copy-pi-servers"]);
    expect(copied.status).toBe(0);
    const adapterFile = path.join(m.agentDir, "mcp-adapter.json");
    expect(copied.stdout).toContain(`Added pi-docs to ${adapterFile}.`);
    expect(JSON.parse(await readFile(adapterFile, "utf8"))).toEqual({
      imports: ["codex"],
      mcpServers: { "pi-docs": { url: "https://docs.example/mcp" } },
    });
    expect(await readFile(piFile, "utf8")).toBe(piText);
    expect(m.run(["status"]).stdout).toContain("- pi-docs: not-connected");

    const badHost = m.run(["setup", "--adopt", "emacs"]);
    expect(badHost.status).toBe(2);
    expect(badHost.stderr).toContain('--adopt: unknown host "emacs" (one of cursor, claude-code');
    const stray = m.run(["status", "--yes"]);
    expect(stray.status).toBe(2);
    expect(stray.stderr).toContain('"status" does not take --yes');
    const help = m.run(["setup", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--create-mcp-json");
  });
});

describe("pi-mcp-adapter project trust", () => {
  it("starts a project server only after its exact definition is approved", async () => {
    const m = await machine();
    await using _dir = m.dir;
    const pids = m.dir.join("pids");
    await mkdir(pids);
    const definition = (extra: string[]) => ({
      mcpServers: {
        proj: {
          command: process.execPath,
          args: [stdioFixtureServerPath, ...extra],
          env: { FIXTURE_PID_DIR: pids },
        },
      },
    });
    const mcpJson = path.join(m.project, ".mcp.json");
    await writeJson(mcpJson, definition([]));

    const search = m.run(["search", "add", "numbers"]);
    expect(search.status).toBe(3);
    expect(search.stdout).not.toContain("proj_add");
    expect(search.stderr).toContain(
      `Project server "proj" from ${mcpJson} is awaiting approval; the CLI does not start it.`,
    );
    expect(search.stderr).toContain("pi-mcp-adapter trust proj");
    const status = m.run(["status", "--json"]);
    expect(status.status).toBe(0);
    expect(JSON.parse(status.stdout).awaitingApproval).toEqual([
      { name: "proj", file: mcpJson, key: "mcpServers.proj", approve: "pi-mcp-adapter trust proj" },
    ]);
    // Commands that only contact a server (an OAuth login) wait for approval too.
    expect(m.run(["auth", "proj"]).status).toBe(3);
    expect(await recordedPids(pids)).toEqual([]);

    const declined = m.run(["trust"], "n\n");
    expect(declined.status).toBe(3);
    expect(declined.stderr).toContain(`runs: ${process.execPath} ${stdioFixtureServerPath}`);
    expect(declined.stdout).toContain("Not approved: proj.");
    expect(m.run(["search", "add"]).status).toBe(3);
    expect(await recordedPids(pids)).toEqual([]);

    const approved = m.run(["trust"], "y\n");
    expect(approved.status).toBe(0);
    expect(approved.stdout).toContain("Approved: proj");
    const after = m.run(["search", "add", "numbers", "--json"]);
    expect(after.stderr).toBe("");
    expect(after.status).toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({
      ok: true,
      text: expect.stringContaining("- proj_add: Add two numbers"),
    });
    expect(await recordedPids(pids)).toHaveLength(1);
    expect(m.run(["trust"]).stdout).toContain("Already approved: proj.");

    // An edited definition needs approval again; --approve-project starts it for one run without saving.
    await writeJson(mcpJson, definition(["--edited"]));
    expect(m.run(["call", "proj_add", '{"a":1,"b":2}']).status).toBe(3);
    expect(await recordedPids(pids)).toHaveLength(1);
    const once = m.run(["--approve-project", "call", "proj_add", '{"a":1,"b":2}']);
    expect(once.status).toBe(0);
    expect(once.stdout.trim()).toBe("3");
    expect(m.run(["search", "add"]).status).toBe(3);
    const all = await recordedPids(pids);
    expect(all).toHaveLength(2);
    expect(await waitForExit(all)).toEqual([]);
  }, 60_000);
});
