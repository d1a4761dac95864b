/**
 * JSON in expanded result rows: what counts as JSON (text, JSON resources,
 * structured content), the size cap, the colours per token, and that the
 * collapsed row and the model's text stay as they were.
 */
import { describe, expect, it } from "vitest";
import {
  highlightJson,
  isJsonMimeType,
  JSON_DISPLAY_MAX_BYTES,
  parseJsonText,
  viewOfTextPart,
} from "../../src/pi/render/json-highlight.js";
import { proxyCallTitle, resultRenderers, resultRows, titleRow } from "../../src/pi/render/render-results.js";

const theme = {
  fg: (color: string, text: string) => `<${color}>${text}</>`,
  bold: (text: string) => text,
};

describe("JSON detection", () => {
  it("objects and arrays that parse, within 64 KiB; anything else stays plain", () => {
    expect(parseJsonText(' {"a": [1, true]}\n')).toEqual({ a: [1, true] });
    expect(parseJsonText("[]")).toEqual([]);
    expect(parseJsonText("42")).toBeUndefined();
    expect(parseJsonText('"text"')).toBeUndefined();
    expect(parseJsonText('{"a": 1')).toBeUndefined();
    expect(parseJsonText("{not json}")).toBeUndefined();
    const big = JSON.stringify({ data: "x".repeat(JSON_DISPLAY_MAX_BYTES) });
    expect(parseJsonText(big)).toBeUndefined();
    // Pretty-printing can push a value that fits over the cap: it stays plain too.
    const wide = Array.from({ length: 14000 }, (_, i) => i % 10);
    expect(JSON.stringify(wide).length).toBeLessThan(JSON_DISPLAY_MAX_BYTES);
    expect(highlightJson(wide)).toBeUndefined();
  });

  it("JSON media types: application/json, application/*+json, not other types", () => {
    expect(isJsonMimeType("application/json")).toBe(true);
    expect(isJsonMimeType("application/ld+json; charset=utf-8")).toBe(true);
    expect(isJsonMimeType("application/vnd.api+json")).toBe(true);
    expect(isJsonMimeType("text/plain")).toBe(false);
    expect(isJsonMimeType("application/jsonl")).toBe(false);
    expect(isJsonMimeType(undefined)).toBe(false);
  });

  it("a resource part keeps its header; a non-JSON resource stays plain even when its body parses", () => {
    expect(viewOfTextPart('[resource data://x.json (application/json)]\n{"a":1}')).toEqual({
      kind: "json",
      header: "[resource data://x.json (application/json)]",
      value: { a: 1 },
    });
    expect(viewOfTextPart('[resource data://x.txt (text/plain)]\n{"a":1}').kind).toBe("plain");
    expect(viewOfTextPart('[resource data://x.json (application/json)]\n{"a":').kind).toBe("plain");
    expect(viewOfTextPart('{"b":2}')).toEqual({ kind: "json", value: { b: 2 } });
  });

  it("colours keys, strings, numbers, literals and punctuation with Pi's syntax keys, two-space indent", () => {
    const lines = highlightJson({ name: 'a "q"', n: -1.5e3, ok: null, list: [true] });
    expect(lines?.map((l) => l.map((s) => s.text).join(""))).toEqual([
      "{",
      '  "name": "a \\"q\\"",',
      '  "n": -1500,',
      '  "ok": null,',
      '  "list": [',
      "    true",
      "  ]",
      "}",
    ]);
    expect(lines?.[1]).toEqual([
      { text: "  " },
      { text: '"name"', color: "syntaxVariable" },
      { text: ":", color: "syntaxPunctuation" },
      { text: " " },
      { text: '"a \\"q\\""', color: "syntaxString" },
      { text: ",", color: "syntaxPunctuation" },
    ]);
    expect(lines?.[2]?.find((s) => s.text === "-1500")?.color).toBe("syntaxNumber");
    expect(lines?.[3]?.find((s) => s.text === "null")?.color).toBe("syntaxNumber");
  });
});

describe("expanded result rows", () => {
  const json = { content: [{ type: "text", text: '{"city":"Oslo","temp":-3}' }] };

  it("expanded: indented and coloured; collapsed: the text as the model got it", () => {
    const expanded = resultRows(json, { expanded: true });
    expect(expanded.map((r) => r.text)).toEqual([
      "  ⎿ {",
      '      "city": "Oslo",',
      '      "temp": -3',
      "    }",
    ]);
    const drawn = resultRenderers({}, proxyCallTitle) as {
      renderResult: (r: unknown, o: unknown, t: unknown, c: unknown) => { render(w: number): string[] };
    };
    const lines = drawn.renderResult(json, { expanded: true, isPartial: false }, theme, {}).render(80);
    expect(lines[1]).toBe(
      '       <syntaxVariable>"city"</><syntaxPunctuation>:</> <syntaxString>"Oslo"</><syntaxPunctuation>,</>',
    );
    expect(resultRows(json, { expanded: false }).map((r) => r.text)).toEqual([
      '  ⎿ {"city":"Oslo","temp":-3}',
    ]);
    // Cut to the width with the colours kept whole.
    const narrow = drawn.renderResult(json, { expanded: true, isPartial: false }, theme, {}).render(14);
    expect(narrow[1]).toBe('       <syntaxVariable>"city"</><syntaxPunctuation>…</>');
  });

  it("invalid JSON, errors and other text stay plain; structured content follows a prose result", () => {
    const broken = { content: [{ type: "text", text: '{"city": "Oslo",' }] };
    expect(resultRows(broken, { expanded: true })[0]?.segments).toBeUndefined();
    expect(resultRows(json, { expanded: true, isError: true })[0]).toEqual({
      text: '  ⎿ {"city":"Oslo","temp":-3}',
      color: "error",
    });
    const prose = {
      content: [{ type: "text", text: "Sunny in Oslo." }],
      details: { mcpResult: { structuredContent: { temp: 21 } } },
    };
    expect(resultRows(prose, { expanded: true }).map((r) => r.text)).toEqual([
      "  ⎿ Sunny in Oslo.",
      "    structured content:",
      "    {",
      '      "temp": 21',
      "    }",
    ]);
  });

  it("titles: ✔ or ✘ once ended, the kind the result names (read for a resource)", () => {
    expect(titleRow("mcp call x", undefined).text).toBe("mcp call x");
    expect(titleRow("mcp call x", { isPartial: true }).text).toBe("mcp call x");
    expect(titleRow("mcp call x", { isPartial: false }).segments?.[0]).toEqual({
      text: "✔ ",
      color: "success",
    });
    expect(titleRow("mcp call x", { isPartial: false, isError: true }).segments?.[0]).toEqual({
      text: "✘ ",
      color: "error",
    });
    const drawn = resultRenderers({}, proxyCallTitle) as {
      renderCall: (a: unknown, t: unknown, c: unknown) => { render(w: number): string[] };
      renderResult: (r: unknown, o: unknown, t: unknown, c: unknown) => unknown;
    };
    const context = { isPartial: false, state: {} };
    const call = drawn.renderCall({ tool: "docs_readme" }, theme, context);
    drawn.renderResult(
      { content: [{ type: "text", text: "# Readme" }], details: { kind: "resource" } },
      { expanded: false, isPartial: false },
      theme,
      context,
    );
    expect(call.render(80)).toEqual([" <success>✔ </><toolTitle>mcp read docs_readme</>"]);
  });
});
