import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  applyEdits,
  createPanelState,
  currentRow,
  directSummary,
  editsSaved,
  moveCursor,
  type PanelServer,
  type PanelState,
  panelRows,
  pendingCount,
  toggleDirect,
  toggleDisabled,
  toggleExpanded,
  toggleScope,
  updateServers,
} from "../../src/pi/panel/panel-model.js";
import { panelSaveFile, savePanelEdits } from "../../src/pi/panel/panel-save.js";

const docs: PanelServer = {
  name: "docs",
  state: "connected",
  toolCount: 3,
  directTools: false,
  disabled: false,
  tools: [{ name: "search" }, { name: "fetch" }, { name: "list" }],
};
const git: PanelServer = {
  name: "git",
  state: "failed",
  toolCount: 0,
  error: "spawn git-mcp ENOENT",
  directTools: true,
  disabled: false,
};

const start = () => createPanelState([docs, git], "project");
const rowNames = (state: PanelState) =>
  panelRows(state).map((r) =>
    r.kind === "server" ? r.server : r.kind === "tool" ? `  ${r.tool}` : `  (${r.text})`,
  );

afterEach(() => vi.unstubAllEnvs());

describe("the panel's state model", () => {
  it("shows servers, expands one to its tools, keeps the cursor inside the rows", () => {
    let state = start();
    expect(rowNames(state)).toEqual(["docs", "git"]);
    state = toggleExpanded(state);
    expect(rowNames(state)).toEqual(["docs", "  search", "  fetch", "  list", "git"]);
    state = moveCursor(state, 10);
    expect(currentRow(state)).toEqual({ kind: "server", server: "git" });
    // A server not listed yet says so under its row.
    state = toggleExpanded(state);
    expect(rowNames(state).at(-1)).toBe("  (listing tools…)");
    state = moveCursor(state, -100);
    expect(state.cursor).toBe(0);
  });

  it("collapsing from a tool row puts the cursor back on its server", () => {
    let state = toggleExpanded(start());
    state = moveCursor(state, 2);
    expect(currentRow(state)).toEqual({ kind: "tool", server: "docs", tool: "fetch" });
    state = toggleExpanded(state);
    expect(rowNames(state)).toEqual(["docs", "git"]);
    expect(currentRow(state)).toEqual({ kind: "server", server: "docs" });
  });

  it("toggles one tool, a whole server, and drops an edit that returns to the configured value", () => {
    let state = moveCursor(toggleExpanded(start()), 1);
    state = toggleDirect(state);
    expect(state.edits).toEqual({ docs: { directTools: ["search"] } });
    expect(directSummary(state, "docs")).toBe("some");
    state = toggleDirect(moveCursor(state, 2)); // list
    expect(state.edits.docs?.directTools).toEqual(["search", "list"]);
    state = toggleDirect(moveCursor(state, -1)); // fetch: now all three
    expect(state.edits.docs?.directTools).toBe(true);
    // Back on the server row: all direct becomes proxy only, which is what is configured: no edit.
    state = toggleDirect(moveCursor(state, -10));
    expect(state.edits).toEqual({});
    expect(pendingCount(state)).toBe(0);
    // git is all direct; its toggle makes it proxy only.
    state = toggleDirect(moveCursor(state, 10));
    expect(state.edits).toEqual({ git: { directTools: false } });
    expect(state.message).toBe("git: proxy only (unsaved)");
  });

  it("disables and enables, switches scope, and after a save the edits are the configured values", () => {
    let state = toggleDisabled(start());
    expect(state.edits).toEqual({ docs: { disabled: true } });
    state = toggleScope(state);
    expect(state.scope).toBe("user");
    state = editsSaved(state, "/p/.pi/mcp-adapter.json");
    expect(state.edits).toEqual({});
    expect(state.servers[0]?.disabled).toBe(true);
    expect(state.message).toBe("Saved to /p/.pi/mcp-adapter.json; applied to this session.");
  });

  it("fresh server facts keep the cursor, expansion and pending edits", () => {
    let state = toggleDisabled(moveCursor(start(), 1));
    state = updateServers(state, [
      { ...docs, state: "failed" },
      { ...git, state: "connected" },
    ]);
    expect(state.cursor).toBe(1);
    expect(state.edits).toEqual({ git: { disabled: true } });
    state = updateServers(state, [docs]);
    expect(state.cursor).toBe(0);
  });
});

describe("what a save writes", () => {
  it("sets only the edited servers' fields and keeps every other key", () => {
    const document = {
      settings: { toolPrefix: "short" },
      mcpServers: { docs: { url: "https://docs.example/mcp", headers: { A: "1" } }, other: { command: "x" } },
      disabledMcpServers: ["git", "other"],
    };
    const next = applyEdits(document, { docs: { directTools: ["search"] }, git: { disabled: false } });
    expect(next).toEqual({
      settings: { toolPrefix: "short" },
      mcpServers: {
        docs: { url: "https://docs.example/mcp", headers: { A: "1" }, directTools: ["search"] },
        other: { command: "x" },
        git: { disabled: false },
      },
      disabledMcpServers: ["other"],
    });
    // The input is not changed.
    expect(document.mcpServers.docs).toEqual({ url: "https://docs.example/mcp", headers: { A: "1" } });
  });

  it("refuses a file whose mcpServers is not an object, and unusable names", () => {
    expect(() => applyEdits({ mcpServers: [] }, { a: { disabled: true } })).toThrow(
      "mcpServers is not an object",
    );
    expect(() => applyEdits({}, JSON.parse('{"__proto__": {"disabled": true}}'))).toThrow(
      "not a usable server name",
    );
  });

  it("writes the project's .pi/mcp-adapter.json or the agent dir's file, atomically, keeping other keys", async () => {
    await using dir = await createTempDir();
    vi.stubEnv("PI_CODING_AGENT_DIR", dir.join("agent"));
    const project = dir.join("project");
    const projectFile = path.join(project, ".pi", "mcp-adapter.json");
    expect(panelSaveFile("project", project)).toBe(projectFile);
    expect(panelSaveFile("user", project)).toBe(dir.join("agent", "mcp-adapter.json"));

    await savePanelEdits({ scope: "project", cwd: project, edits: { docs: { directTools: true } } });
    expect(JSON.parse(await readFile(projectFile, "utf8"))).toEqual({
      mcpServers: { docs: { directTools: true } },
    });

    await mkdir(dir.join("agent"));
    await writeFile(
      dir.join("agent", "mcp-adapter.json"),
      JSON.stringify({ imports: ["cursor"], mcpServers: {} }),
    );
    await savePanelEdits({ scope: "user", cwd: project, edits: { docs: { disabled: true } } });
    expect(JSON.parse(await readFile(dir.join("agent", "mcp-adapter.json"), "utf8"))).toEqual({
      imports: ["cursor"],
      mcpServers: { docs: { disabled: true } },
    });
  });

  it("keeps the file's comments and its 0600 mode when it saves", async () => {
    await using dir = await createTempDir();
    const project = dir.join("project");
    const file = path.join(project, ".pi", "mcp-adapter.json");
    await mkdir(path.dirname(file), { recursive: true });
    const text =
      '{\n  // tokens live here\n  "mcpServers": {\n    "api": { "url": "https://a.example.com", "bearerToken": "t" }\n  }\n}\n';
    await writeFile(file, text);
    await chmod(file, 0o600);
    await savePanelEdits({ scope: "project", cwd: project, edits: { api: { disabled: true } } });
    const saved = await readFile(file, "utf8");
    expect(saved.startsWith('{\n  // tokens live here\n  "mcpServers": {\n    "api": {')).toBe(true);
    expect(saved).toContain('"disabled": true');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("never writes an untrusted project's file, and names a broken file instead of overwriting it", async () => {
    await using dir = await createTempDir();
    await expect(
      savePanelEdits({ scope: "project", cwd: dir.path, edits: { a: { disabled: true } }, trusted: false }),
    ).rejects.toThrow(/Not changing .*\.pi\/mcp-adapter\.json: the project is not trusted/);
    const file = path.join(dir.path, ".pi", "mcp-adapter.json");
    await savePanelEdits({ scope: "project", cwd: dir.path, edits: { a: { disabled: true } } });
    await writeFile(file, "{ broken");
    await expect(
      savePanelEdits({ scope: "project", cwd: dir.path, edits: { a: { disabled: false } } }),
    ).rejects.toThrow(/Not changing .*mcp-adapter\.json.*fix the file first/);
    expect(await readFile(file, "utf8")).toBe("{ broken");
  });
});
