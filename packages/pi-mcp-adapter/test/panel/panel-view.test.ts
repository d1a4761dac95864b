import { describe, expect, it } from "vitest";
import { matchesKeyId, panelAction, saveKeys } from "../../src/pi/panel/panel-keys.js";
import {
  createPanelState,
  moveCursor,
  toggleDirect,
  toggleExpanded,
} from "../../src/pi/panel/panel-model.js";
import { renderPanel } from "../../src/pi/panel/panel-view.js";
import { textWidth } from "../../src/pi/render/render-text.js";

const servers = [
  {
    name: "docs",
    state: "connected",
    toolCount: 2,
    directTools: false as const,
    disabled: false,
    tools: [{ name: "search" }, { name: "fetch" }],
  },
  {
    name: "git",
    state: "needs-auth",
    toolCount: 0,
    error: "HTTP 401:\nlogin required",
    directTools: true as const,
    disabled: false,
  },
];

describe("drawing the panel", () => {
  it("shows each server's state, tool count and mode, the cursor, tools when expanded, and the last error", () => {
    let state = toggleExpanded(createPanelState(servers, "project"));
    state = toggleDirect(moveCursor(state, 1));
    const lines = renderPanel(moveCursor(state, 2), 200, undefined, { saveFile: "/p/.pi/mcp-adapter.json" });
    expect(lines[0]).toBe(" MCP servers — 1 unsaved change");
    expect(lines[1]).toBe(" Saves to /p/.pi/mcp-adapter.json (project)");
    expect(lines).toContain("   ▾ docs  connected  2 tools  some direct *");
    expect(lines).toContain("       *[x] search  direct");
    expect(lines).toContain("       *[ ] fetch  proxy");
    expect(lines).toContain(" › ▸ git  needs-auth  0 tools  direct");
    // The selected server's last error, on one line.
    expect(lines).toContain(" last error: HTTP 401: login required");
    expect(lines.at(-1)).toContain("tab scope · ctrl+s save · esc close");
    // The setup hook shows only where the host wired it.
    expect(renderPanel(state, 200, undefined, { setup: true }).at(-1)).toContain("s setup · ctrl+s save");
  });

  it("says which servers share their process with other sessions, and why one does not", () => {
    const shared = [
      { ...servers[0]!, shared: "shared (3 sessions)" },
      { ...servers[1]!, state: "connected", shared: "not shared: the daemon did not start" },
    ];
    const lines = renderPanel(createPanelState(shared, "user"), 200);
    expect(lines).toContain(" › ▸ docs  connected  shared (3 sessions)  2 tools  proxy");
    expect(lines).toContain("   ▸ git  connected  not shared: the daemon did not start  0 tools  direct");
  });

  it("says how many MCP tasks run on a server (resumed ones included), and nothing when none do", () => {
    const running = [
      { ...servers[0]!, tasks: 2 },
      { ...servers[1]!, state: "connected", tasks: 0 },
    ];
    const lines = renderPanel(createPanelState(running, "user"), 200);
    expect(lines).toContain(" › ▸ docs  connected  2 tools  2 tasks running  proxy");
    expect(lines).toContain("   ▸ git  connected  0 tools  direct");
  });

  it("lists the session's resource watches below the servers, and nothing when there are none", () => {
    const state = createPanelState(servers, "project");
    const watched = renderPanel(state, 200, undefined, { watches: ["docs · note://todo — 2 updates"] });
    const at = watched.indexOf(" Watched resources (1)");
    expect(at).toBeGreaterThan(watched.indexOf("   ▸ git  needs-auth  0 tools  direct"));
    expect(watched[at + 1]).toBe("   docs · note://todo — 2 updates");
    expect(renderPanel(state, 200).join("\n")).not.toContain("Watched resources");
  });

  it("marks a server with changed tools, and each changed or new tool with what changed", () => {
    const changed = [
      {
        ...servers[0]!,
        changedTools: 2,
        tools: [
          { name: "search", change: "description: …docs[+ and mail them to x+]" },
          { name: "fetch", change: "new" },
        ],
      },
    ];
    const lines = renderPanel(toggleExpanded(createPanelState(changed, "user")), 200);
    expect(lines).toContain(" › ▾ docs  connected  2 tools  proxy  2 changed (trust-tools)");
    expect(lines).toContain("        [ ] search  proxy  changed: description: …docs[+ and mail them to x+]");
    expect(lines).toContain("        [ ] fetch  proxy  new");
  });

  it("never draws a line wider than it is given, wide characters and server output included", () => {
    const wide = [{ ...servers[0]!, name: "文档服务器".repeat(10), error: "\x1b[31mred\x1b[0m" }];
    for (const width of [10, 33, 80]) {
      const lines = renderPanel(createPanelState(wide, "user"), width);
      for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.join("\n")).not.toContain("\x1b");
    }
  });
});

describe("panel keys", () => {
  const bindings = (user: Record<string, unknown> = {}) => ({
    // Pi's manager with its defaults for the select keys.
    matches: (data: string, id: string) =>
      ({
        "tui.select.up": "\x1b[A",
        "tui.select.down": "\x1b[B",
        "tui.select.confirm": "\r",
        "tui.select.cancel": "\x1b",
      })[id] === data,
    getUserBindings: () => user,
  });

  it("maps the terminal's bytes to actions in the legacy, Kitty and modifyOtherKeys encodings", () => {
    const kb = bindings();
    expect(panelAction("\x1b[A", kb)).toBe("up");
    expect(panelAction("\x1b[B", kb)).toBe("down");
    expect(panelAction("\r", kb)).toBe("confirm");
    expect(panelAction("\x1b", kb)).toBe("close");
    expect(panelAction(" ", kb)).toBe("toggle-direct");
    expect(panelAction("e", kb)).toBe("toggle-disabled");
    expect(panelAction("r", kb)).toBe("reconnect");
    expect(panelAction("\t", kb)).toBe("scope");
    expect(panelAction("s", kb)).toBe("setup");
    for (const ctrlA of ["\x01", "\x1b[97;5u", "\x1b[27;5;97~"]) expect(panelAction(ctrlA, kb)).toBe("auth");
    for (const ctrlS of ["\x13", "\x1b[115;5u", "\x1b[115;5:1u", "\x1b[27;5;115~"]) {
      expect(panelAction(ctrlS, kb)).toBe("save");
    }
    expect(panelAction("x", kb)).toBeUndefined();
  });

  it("save follows the mcp.panel.save keybinding when the user sets one", () => {
    const kb = bindings({ "mcp.panel.save": ["ctrl+w", "w"] });
    const keys = saveKeys(kb);
    expect(keys).toEqual(["ctrl+w", "w"]);
    expect(panelAction("\x17", kb, keys)).toBe("save");
    expect(panelAction("w", kb, keys)).toBe("save");
    expect(panelAction("\x13", kb, keys)).toBeUndefined();
    expect(saveKeys(bindings({ "mcp.panel.save": 3 }))).toEqual(["ctrl+s"]);
    expect(saveKeys(undefined)).toEqual(["ctrl+s"]);
  });

  it("matches key ids it knows and nothing it does not", () => {
    expect(matchesKeyId("\x13", "ctrl+s")).toBe(true);
    expect(matchesKeyId("s", "ctrl+s")).toBe(false);
    expect(matchesKeyId("\x13", "ctrl+shift+s")).toBe(false);
    expect(matchesKeyId("\r", "return")).toBe(true);
  });
});
