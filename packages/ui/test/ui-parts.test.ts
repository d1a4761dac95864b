import { describe, expect, it } from "vitest";
import {
  appCsp,
  browserAvailable,
  cspDomainsOf,
  formatUiMessages,
  isLoopback,
  MAX_QUEUED_UI_MESSAGES,
  ToolConsent,
  toolConsentMode,
  UiMessageQueue,
  uiViewerMode,
} from "../src/index.js";

describe("uiViewerMode", () => {
  it("follows MCP_UI_VIEWER, else the browser only where a display exists", () => {
    expect(uiViewerMode({ MCP_UI_VIEWER: "none", DISPLAY: ":0" }, "linux")).toEqual({ mode: "none" });
    expect(uiViewerMode({ MCP_UI_VIEWER: "browser" }, "linux")).toEqual({ mode: "browser" });
    expect(uiViewerMode({}, "linux")).toEqual({ mode: "none" });
    expect(uiViewerMode({ WAYLAND_DISPLAY: "wayland-0" }, "linux")).toEqual({ mode: "browser" });
    expect(uiViewerMode({}, "darwin")).toEqual({ mode: "browser" });
    expect(uiViewerMode({}, "win32")).toEqual({ mode: "browser" });
  });

  it("over SSH opens the browser only with a forwarded display", () => {
    expect(uiViewerMode({ SSH_CONNECTION: "10.0.0.2 5022 10.0.0.1 22" }, "darwin")).toEqual({ mode: "none" });
    expect(uiViewerMode({ SSH_TTY: "/dev/pts/1" }, "linux")).toEqual({ mode: "none" });
    expect(uiViewerMode({ SSH_TTY: "/dev/pts/1", DISPLAY: "localhost:10.0" }, "linux")).toEqual({
      mode: "browser",
    });
    expect(uiViewerMode({ SSH_TTY: "/dev/pts/1", MCP_UI_VIEWER: "browser" }, "darwin")).toEqual({
      mode: "browser",
    });
  });

  it("browserAvailable (login pages, URL elicitation) answers as the viewer's fallback does", () => {
    expect(browserAvailable({}, "linux")).toBe(false);
    expect(browserAvailable({ DISPLAY: ":0" }, "linux")).toBe(true);
    expect(browserAvailable({}, "darwin")).toBe(true);
    // Over SSH the browser would open on the remote machine's screen.
    expect(browserAvailable({ SSH_CONNECTION: "10.0.0.2 5022 10.0.0.1 22" }, "darwin")).toBe(false);
    expect(browserAvailable({ SSH_TTY: "/dev/pts/1", DISPLAY: "localhost:10.0" }, "linux")).toBe(true);
  });

  it("glimpse and unknown values fall back with a note saying so", () => {
    expect(uiViewerMode({ MCP_UI_VIEWER: "glimpse" }, "darwin")).toEqual({
      mode: "browser",
      note: "MCP_UI_VIEWER=glimpse: Glimpse windows are not supported in this version; MCP Apps open in the browser",
    });
    expect(uiViewerMode({ MCP_UI_VIEWER: "tv" }, "linux")).toEqual({
      mode: "none",
      note: 'MCP_UI_VIEWER="tv" is not browser, glimpse or none; using none',
    });
  });
});

describe("ToolConsent", () => {
  const request = { serverName: "board", toolName: "add_item", appToolName: "show_board" };

  it("never allows without asking; always asks every call; once-per-server remembers a yes only", async () => {
    let asked = 0;
    const ask = (answer: boolean) => async () => {
      asked++;
      return answer;
    };
    expect(await new ToolConsent("never", ask(false)).check(request)).toBeUndefined();
    expect(await new ToolConsent("never", undefined).check(request)).toBeUndefined();
    expect(asked).toBe(0);

    const always = new ToolConsent("always", ask(true));
    expect(await always.check(request)).toBeUndefined();
    expect(await always.check(request)).toBeUndefined();
    expect(asked).toBe(2);

    const answers = [false, true];
    const once = new ToolConsent("once-per-server", async () => {
      asked++;
      return answers.shift() ?? false;
    });
    expect(await once.check(request)).toBe("The user did not allow this app to call add_item");
    expect(await once.check(request)).toBeUndefined();
    expect(await once.check({ ...request, toolName: "other" })).toBeUndefined();
    expect(asked).toBe(4);
    expect(await new ToolConsent("once-per-server", undefined).check(request)).toMatch(/nobody can be asked/);
  });

  it("reads MCP_UI_TOOL_CONSENT", () => {
    expect(toolConsentMode({ MCP_UI_TOOL_CONSENT: "never" })).toBe("never");
    expect(toolConsentMode({ MCP_UI_TOOL_CONSENT: "always" })).toBe("always");
    expect(toolConsentMode({})).toBe("once-per-server");
  });
});

describe("appCsp", () => {
  it("allows only the declared domains, and never this server or injected directives", () => {
    const meta = {
      ui: {
        csp: {
          connectDomains: ["https://api.example.com", "'self'", "https://x.com; script-src *"],
          resourceDomains: ["https://cdn.example.com"],
        },
      },
    };
    const csp = appCsp(cspDomainsOf(meta));
    expect(csp).toContain("connect-src https://api.example.com;");
    expect(csp).toContain("script-src 'unsafe-inline' blob: https://cdn.example.com;");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toContain("'self'");
    expect(appCsp(undefined)).toContain("connect-src 'none'");
  });
});

describe("UiMessageQueue", () => {
  it("formats messages for the model and drops the oldest beyond the cap", () => {
    const queue = new UiMessageQueue();
    const base = {
      sessionId: "abc",
      serverName: "board",
      toolName: "show_board",
      timestamp: "2026-01-01T00:00:00.000Z",
    };
    for (let i = 0; i <= MAX_QUEUED_UI_MESSAGES; i++) queue.push({ ...base, type: "notify", payload: { i } });
    const { messages, dropped } = queue.take();
    expect(messages).toHaveLength(MAX_QUEUED_UI_MESSAGES);
    expect(dropped).toBe(1);
    expect(formatUiMessages(messages.slice(0, 1), dropped)).toBe(
      '1 UI message (1 older dropped):\n[2026-01-01T00:00:00.000Z] notify from board/show_board (session abc): {"i":1}',
    );
    expect(formatUiMessages([])).toBe("No UI messages.");
  });
});

describe("isLoopback", () => {
  it("accepts 127.0.0.0/8 and ::1 only", () => {
    expect(["127.0.0.1", "::ffff:127.0.0.1", "::1", "127.1.2.3"].every(isLoopback)).toBe(true);
    expect(["10.0.0.1", "::ffff:192.168.1.2", "", undefined].some(isLoopback)).toBe(false);
  });
});
