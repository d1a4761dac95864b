import { statusSnapshot } from "@pi-mcp-adapter/runtime/startup";
import { describe, expect, it } from "vitest";
import {
  argumentSummary,
  proxyCallTitle,
  resultRenderers,
  resultRows,
} from "../../src/pi/render/render-results.js";
import { textWidth } from "../../src/pi/render/render-text.js";
import { footerText, startupNotices } from "../../src/pi/status/footer-status.js";

const snapshot = statusSnapshot([
  { name: "a", state: "connected", toolCount: 3, source: "" },
  { name: "b", state: "failed", error: "boom", toolCount: 2, source: "" },
  { name: "c", state: "needs-auth", source: "" },
  { name: "d", state: "disabled", toolCount: 9, source: "" },
]);

describe("the footer status", () => {
  it("full (default): connected of enabled, failed, needs auth, tool total, with the state icon", () => {
    expect(footerText(snapshot)).toBe("▲ MCP: 1/3 connected, 1 failed, 1 needs auth · 5 tools");
  });

  it("compact, without the icon, and off", () => {
    expect(footerText(snapshot, { mcpFooterStatus: "compact" })).toBe("▲ MCP 1/3 ✗1 ⚿1");
    expect(footerText(snapshot, { mcpFooterStatus: "compact", showStatusIcon: false })).toBe("MCP 1/3 ✗1 ⚿1");
    expect(footerText(snapshot, { mcpFooterStatus: "off" })).toBeUndefined();
  });

  it("all well shows the round icon; no enabled server shows nothing", () => {
    const well = statusSnapshot([{ name: "a", state: "connected", toolCount: 1, source: "" }]);
    expect(footerText(well)).toBe("● MCP: 1/1 connected · 1 tool");
    expect(footerText(statusSnapshot([{ name: "d", state: "disabled", source: "" }]))).toBeUndefined();
  });
});

describe("start-up connect notices", () => {
  const started = [
    { name: "a", state: "connected" as const, toolCount: 3 },
    { name: "b", state: "failed" as const, error: "spawn x ENOENT" },
    { name: "c", state: "needs-auth" as const },
  ];

  it("name the connected servers, and warn about failures and logins", () => {
    expect(startupNotices(started)).toEqual([
      { message: "MCP: connected a (3 tools)", level: "info" },
      { message: 'MCP: "b" failed to connect: spawn x ENOENT', level: "warning" },
      { message: 'MCP: "c" needs a login: run /mcp-auth c', level: "warning" },
    ]);
  });

  it("notifyOnStartupConnect: false drops only the routine line", () => {
    expect(startupNotices(started, false).map((n) => n.level)).toEqual(["warning", "warning"]);
  });
});

describe("result rows", () => {
  const result = { content: [{ type: "text", text: "first\n\nsecond\nthird\n" }] };

  it("compact: the first line and an expand hint; collapsedResultLines shows more; expanded shows all", () => {
    expect(resultRows(result, { expanded: false })).toEqual([
      { text: "  ⎿ first", color: undefined },
      { text: "    … 2 more lines (ctrl+o to expand)", color: "muted" },
    ]);
    expect(resultRows(result, { expanded: false, collapsedLines: 2 }).map((r) => r.text)).toEqual([
      "  ⎿ first",
      "    second",
      "    … 1 more line (ctrl+o to expand)",
    ]);
    expect(resultRows(result, { expanded: true }).map((r) => r.text)).toEqual([
      "  ⎿ first",
      "    second",
      "    third",
    ]);
    expect(resultRows(result, { expanded: false, isError: true })[0]?.color).toBe("error");
    expect(resultRows(result, { expanded: false, isPartial: true })[0]?.text).toBe("    … running");
  });

  it("boxed: three lines by default, no tree marks", () => {
    const four = { content: [{ type: "text", text: "1\n2\n3\n4" }] };
    expect(resultRows(four, { expanded: false, boxed: true }).map((r) => r.text)).toEqual([
      "1",
      "2",
      "3",
      "… 1 more line (ctrl+o to expand)",
    ]);
  });

  it("titles proxy calls by what they do", () => {
    expect(proxyCallTitle({ tool: "echo", server: "fx", args: { text: "hi" } })).toBe(
      'mcp call fx/echo text="hi"',
    );
    expect(proxyCallTitle({ search: "weather" })).toBe('mcp search "weather"');
    expect(proxyCallTitle({ describe: "fx_echo" })).toBe("mcp describe fx_echo");
    expect(proxyCallTitle({})).toBe("mcp status");
    expect(argumentSummary({ long: "x".repeat(100) })).toBe(`long="${"x".repeat(38)}…`);
  });

  it("the renderers Pi calls: compact draws its own shell within the width; boxed leaves the call line to Pi", () => {
    const theme = {
      fg: (color: string, text: string) => `<${color}>${text}</>`,
      bold: (text: string) => text,
    };
    const compact = resultRenderers({}, proxyCallTitle) as {
      renderShell: string;
      renderCall: (args: unknown, theme: unknown, c: unknown) => { render(width: number): string[] };
      renderResult: (
        r: unknown,
        o: unknown,
        theme: unknown,
        c: unknown,
      ) => { render(width: number): string[] };
    };
    expect(compact.renderShell).toBe("self");
    // A self-rendered row pads itself: Pi 1.x says how much (outputPad), 0.7x gets 1.
    expect(compact.renderCall({ search: "weather" }, theme, undefined).render(80)).toEqual([
      ' <toolTitle>mcp search "weather"</>',
    ]);
    expect(compact.renderCall({ search: "weather" }, theme, { outputPad: 0 }).render(80)).toEqual([
      '<toolTitle>mcp search "weather"</>',
    ]);
    const context = { keyHint: () => "ctrl+x to expand", outputPad: 2 };
    expect(
      compact.renderResult(result, { expanded: false, isPartial: false }, theme, context).render(60),
    ).toEqual(["    ⎿ first", "  <muted>    … 2 more lines (ctrl+x to expand)</>"]);
    const rows = compact
      .renderResult(result, { expanded: false, isPartial: false }, theme, undefined)
      .render(12);
    expect(rows).toEqual(["   ⎿ first", " <muted>    … 2 mo…</>"]);
    for (const row of rows) expect(textWidth(row.replace(/<\/?[a-z]*>/gi, ""))).toBeLessThanOrEqual(12);

    const boxed = resultRenderers({ toolResultRendering: "boxed", collapsedResultLines: 1 }, proxyCallTitle);
    expect(Object.keys(boxed)).toEqual(["renderResult"]);
  });
});
