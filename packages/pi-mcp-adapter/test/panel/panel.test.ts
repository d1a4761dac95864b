import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { createRuntime } from "@pi-mcp-adapter/runtime";
import { createTempDir, stdioFixtureServerPath, watchFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openPanel, panelServers } from "../../src/pi/panel/panel.js";

interface Shown {
  render(width: number): string[];
  handleInput(data: string): void;
}

/**
 * A host whose `custom()` draws like Pi's TUI does: it calls the factory,
 * hands the test the component, and resolves when the panel calls `done`.
 * `rpc: true` behaves like RPC mode (the factory is never called).
 */
function panelHost(cwd: string, rpc = false) {
  const shown: Shown[] = [];
  let renders = 0;
  const notes: string[] = [];
  const ctx = {
    cwd,
    hasUI: true,
    ui: {
      notify: (message: string) => notes.push(message),
      custom: (factory: (...args: unknown[]) => Shown) =>
        new Promise((resolve) => {
          if (rpc) return resolve(undefined);
          // Pi's defaults for the select keys.
          const select: Record<string, string> = {
            "tui.select.up": "\x1b[A",
            "tui.select.down": "\x1b[B",
            "tui.select.confirm": "\r",
            "tui.select.cancel": "\x1b",
          };
          const keybindings = {
            matches: (data: string, id: string) => select[id] === data,
            getUserBindings: () => ({}),
          };
          const theme = { fg: (_c: string, t: string) => t, bold: (t: string) => t };
          shown.push(factory({ requestRender: () => renders++ }, theme, keybindings, resolve));
        }),
    },
  } as unknown as ExtensionContext;
  const screen = () => shown.at(-1)?.render(120).join("\n") ?? "";
  // Polls the screen; the generous timeout is for a loaded machine (a real server is listed).
  const until = (test: (s: string) => boolean) =>
    vi.waitFor(
      () => {
        const now = screen();
        if (!test(now)) throw new Error(`not on the screen yet:\n${now}`);
      },
      { timeout: 10_000 },
    );
  return {
    ctx,
    shown,
    notes,
    screen,
    until,
    key: (data: string) => shown.at(-1)?.handleInput(data),
    /** How often the panel asked Pi to draw it again. */
    renders: () => renders,
  };
}

afterEach(() => vi.unstubAllEnvs());

describe("the /mcp-adapter panel component", () => {
  it("expands a server (listing it), saves a toggle, applies it live and comes back; ctrl+a closes it to log in", async () => {
    await using dir = await createTempDir();
    const project = dir.join("project");
    const server = { command: process.execPath, args: [stdioFixtureServerPath] };
    // The user's own file (below the project's in precedence, like a real setup).
    vi.stubEnv("HOME", dir.path);
    vi.stubEnv("PI_CODING_AGENT_DIR", dir.join("agent"));
    await mkdir(project);
    await mkdir(dir.join("agent"));
    await writeFile(dir.join("agent", "mcp-adapter.json"), JSON.stringify({ mcpServers: { fx: server } }));
    const runtime = await createRuntime({ cwd: project, metadataCacheFile: false, npxCacheFile: false });
    const host = panelHost(project);
    const login = vi.fn(async () => {});
    try {
      const closed = openPanel(host.ctx, { runtime, login });
      await host.until((s) => s.includes("▸ fx  not-connected  0 tools  proxy"));
      host.key("\r");
      await host.until((s) => s.includes("[ ] whoami  proxy"));
      expect(host.screen()).toContain("fx  connected  4 tools  proxy");
      // Once listed, the row tells what the server costs in every request (its roster entry)
      // and what it would with all its tools direct.
      const cost = /fx {2}connected {2}4 tools {2}proxy {2}~(\d+) tok\/request \(all direct ~([\d,]+)\)/;
      await host.until((s) => cost.test(s));
      const [, rosterOnly, allDirect] = cost.exec(host.screen())!.map((n) => Number(n.replace(/,/g, "")));
      expect(allDirect).toBeGreaterThan(rosterOnly! * 10);
      host.key("\x1b[B"); // echo
      host.key(" ");
      await host.until((s) => s.includes("*[x] echo  direct") && s.includes("1 unsaved change"));
      host.key("\x13");
      // The panel closes to apply the save, then a fresh one shows the outcome.
      await host.until((s) => s.includes("applied to this session"));
      expect(host.shown).toHaveLength(2);
      const file = path.join(project, ".pi", "mcp-adapter.json");
      expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
        mcpServers: { fx: { directTools: ["echo"] } },
      });
      expect(runtime.servers.definition("fx")?.directTools).toEqual(["echo"]);
      expect(host.screen()).toContain("fx  connected  4 tools  some direct");
      // echo's declaration now counts in every request, less than all four tools would.
      const some = /some direct {2}~(\d+) tok\/request/;
      await host.until((s) => Number(some.exec(s)?.[1] ?? 0) > rosterOnly!);
      expect(Number(some.exec(host.screen())![1])).toBeLessThan(allDirect!);
      // ctrl+a logs in to the server under the cursor (after closing).
      host.key("\x01");
      expect(await closed).toBe(true);
      expect(login).toHaveBeenCalledWith("fx", host.ctx);
      expect(host.notes).toEqual([]);
    } finally {
      await runtime.shutdown();
    }
  });

  it("Escape with unsaved changes says they were discarded; in RPC mode nothing is drawn", async () => {
    await using dir = await createTempDir();
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: { fx: { command: process.execPath, args: [stdioFixtureServerPath] } } },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    try {
      const host = panelHost(dir.path);
      const closed = openPanel(host.ctx, { runtime, login: async () => {} });
      await host.until((s) => s.includes("fx"));
      host.key("e");
      await host.until((s) => s.includes("fx  disabled"));
      host.key("\x1b");
      expect(await closed).toBe(true);
      expect(host.notes).toEqual(["MCP panel closed; 1 unsaved change discarded."]);

      const rpc = panelHost(dir.path, true);
      expect(await openPanel(rpc.ctx, { runtime, login: async () => {} })).toBe(false);
    } finally {
      await runtime.shutdown();
    }
  });

  it('shows a server following directTools "auto" as the session decided: direct once the small catalog is known', async () => {
    await using dir = await createTempDir();
    const source = {
      cwd: dir.path,
      config: {
        settings: { directTools: "auto" },
        mcpServers: { fx: { command: process.execPath, args: [stdioFixtureServerPath] } },
      },
      metadataCacheFile: dir.join("mcp-cache.json"),
      npxCacheFile: false as const,
    };
    // The first session knows nothing yet: proxy; listing fills the cache.
    const first = await createRuntime(source);
    try {
      await first.catalog.view();
      expect(panelServers(first).map((s) => [s.name, s.directTools])).toEqual([["fx", false]]);
    } finally {
      await first.shutdown();
    }
    // The next one decides from the cache: four tools are a small catalog.
    const next = await createRuntime(source);
    try {
      expect(panelServers(next).map((s) => [s.name, s.directTools])).toEqual([["fx", true]]);
    } finally {
      await next.shutdown();
    }
  });

  it("asks Pi to draw again when a watched resource updates, and then shows the new count", async () => {
    await using dir = await createTempDir();
    const file = dir.join("todo.txt");
    await writeFile(file, "buy milk");
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          notes: {
            command: process.execPath,
            args: [watchFixtureServerPath],
            env: { WATCH_FIXTURE_FILE: file },
          },
        },
      },
      metadataCacheFile: false,
      npxCacheFile: false,
    });
    try {
      await runtime.watches.watch("notes", "note://todo");
      const host = panelHost(dir.path);
      // Listeners hear an update in the order they came: one before the panel's, one after.
      let before = -1;
      let after = -1;
      runtime.watches.onUpdate(() => {
        before = host.renders();
      });
      const closed = openPanel(host.ctx, { runtime, login: async () => {} });
      await host.until((s) => s.includes("Watched resources (1)"));
      runtime.watches.onUpdate(() => {
        after = host.renders();
      });
      await writeFile(file, "buy bread");
      await vi.waitFor(() => expect(after).toBeGreaterThanOrEqual(0), { timeout: 10_000 });
      expect(after - before).toBe(1);
      expect(host.screen()).toContain("notes · note://todo — 1 update");
      host.key("\x1b");
      await closed;
    } finally {
      await runtime.shutdown();
    }
  });
});
