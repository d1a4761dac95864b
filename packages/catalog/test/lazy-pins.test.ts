/**
 * The cache file's pins are parsed and checked when first needed, not when
 * the file is read: a start-up that never compares a pin parses none, a
 * rewrite before then keeps every pin as it was, and a corrupt pins line is
 * reported when the pins are first read (they then count as none).
 * The check `isPins` is spied (wrapping the real one) to count it honestly.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RemoteTool } from "@pi-mcp-adapter/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MetadataCache } from "../src/index.js";
import { isPins } from "../src/pins-check.js";
import { pinTool, type ServerPins } from "../src/tool-fingerprint.js";

vi.mock("../src/pins-check.js", async (real) => {
  const module = await real<typeof import("../src/pins-check.js")>();
  return { isPins: vi.fn(module.isPins) };
});

const tool = (name: string): RemoteTool => ({
  name,
  description: `Does ${name} — ✓ 課題.`,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
});
const pinsOf = (identity: string, names: string[]): ServerPins => ({
  identity,
  tools: Object.fromEntries(names.map((n) => [n, pinTool(tool(n))])),
});
// A marker only the pins hold: any JSON.parse of text containing it parsed the pins.
const MARK = "pins-identity-marker";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "catalog-lazy-pins-"));
  file = path.join(dir, "mcp-cache.json");
  const writer = new MetadataCache({ file });
  await writer.put("docs", "k-docs", { tools: [tool("search_docs"), tool("read_page")] });
  await writer.put("tracker", "k-tracker", { tools: [tool("list_issues")] });
  await writer.updatePins({
    docs: () => pinsOf(`${MARK}-docs`, ["search_docs", "read_page"]),
    tracker: () => pinsOf(`${MARK}-tracker`, ["list_issues"]),
  });
  vi.mocked(isPins).mockClear();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

/** Counts JSON.parse calls on text holding the pins, and isPins checks, while `run` runs. */
async function pinParses(run: () => Promise<void> | void): Promise<{ parses: number; checks: number }> {
  const parse = vi.spyOn(JSON, "parse");
  const checks = vi.mocked(isPins).mock.calls.length;
  try {
    await run();
    const parses = parse.mock.calls.filter(([text]) => String(text).includes(MARK)).length;
    return { parses, checks: vi.mocked(isPins).mock.calls.length - checks };
  } finally {
    parse.mockRestore();
  }
}

describe("pins parsed when first needed", () => {
  it("a start that reads the file and its listings parses no pins; the first pins read parses them once", async () => {
    const cache = new MetadataCache({ file });
    const start = await pinParses(async () => {
      await cache.load();
      expect(cache.get("docs", "k-docs")?.tools.map((t) => t.name)).toEqual(["search_docs", "read_page"]);
      expect(cache.savedAt("tracker", "k-tracker")).toBeTypeOf("number");
    });
    expect(start).toEqual({ parses: 0, checks: 0 });
    const first = await pinParses(() => {
      expect(cache.pins("docs")).toEqual(pinsOf(`${MARK}-docs`, ["search_docs", "read_page"]));
      expect(cache.pins("tracker")?.identity).toBe(`${MARK}-tracker`);
    });
    expect(first).toEqual({ parses: 1, checks: 1 });
  });

  it("a rewrite before the pins were read keeps every pin, byte for byte, and parses none", async () => {
    const before = JSON.parse(await readFile(file, "utf8")).pins;
    const cache = new MetadataCache({ file });
    await cache.load();
    // Another process pins a third server after this one read the file: the write re-reads it.
    await new MetadataCache({ file }).updatePins({ notes: () => pinsOf(`${MARK}-notes`, ["add_note"]) });
    const pinsLine = (text: string) => text.split("\n").at(-2);
    const other = pinsLine(await readFile(file, "utf8"));
    const rewrite = await pinParses(async () => {
      await cache.put("tracker", "k-tracker-2", { tools: [tool("list_issues"), tool("close_issue")] });
      await cache.delete("docs");
    });
    expect(rewrite).toEqual({ parses: 0, checks: 0 });
    const text = await readFile(file, "utf8");
    expect(pinsLine(text)).toBe(other);
    const after = JSON.parse(text);
    expect(Object.keys(after.servers)).toEqual(["tracker"]);
    expect(after.pins).toEqual({ ...before, notes: pinsOf(`${MARK}-notes`, ["add_note"]) });
    const reader = new MetadataCache({ file });
    await reader.load();
    expect(reader.pins("docs")).toEqual(before.docs);
  });

  it("a pin change reads the real pins first and keeps the others", async () => {
    const cache = new MetadataCache({ file });
    await cache.load();
    await cache.updatePins({
      docs: (current) => ({ ...current!, tools: { ...current!.tools, extra: pinTool(tool("extra")) } }),
    });
    const reader = new MetadataCache({ file });
    await reader.load();
    expect(Object.keys(reader.pins("docs")?.tools ?? {}).sort()).toEqual([
      "extra",
      "read_page",
      "search_docs",
    ]);
    expect(reader.pins("tracker")).toEqual(pinsOf(`${MARK}-tracker`, ["list_issues"]));
  });

  it("reports a corrupt pins line when the pins are first read, naming the file; they then count as none", async () => {
    const text = await readFile(file, "utf8");
    const cases = [
      {
        text: text.replace(`"identity":"${MARK}-docs"`, `"identity":${MARK}`),
        problem: "not valid JSON (corrupt or truncated)",
      },
      { text: text.replace(`"identity":"${MARK}-docs"`, '"identity":5'), problem: "unexpected shape" },
    ];
    for (const corrupt of cases) {
      await writeFile(file, corrupt.text);
      const problems: string[] = [];
      const cache = new MetadataCache({ file, onProblem: (m) => problems.push(m) });
      await cache.load();
      // The listings are served; nothing is said until the pins are needed.
      expect(cache.get("docs", "k-docs")?.tools).toHaveLength(2);
      expect(problems).toEqual([]);
      expect(cache.pins("tracker")).toBeUndefined();
      expect(cache.pins("docs")).toBeUndefined();
      expect(problems).toEqual([
        `ignoring the tool pins in ${file}: ${corrupt.problem}; every server's tools will be pinned again as first seen`,
      ]);
      // The next write leaves the corrupt pins out: the file is valid JSON again.
      await cache.put("notes", "k-notes", { tools: [tool("add_note")] });
      const rewritten = JSON.parse(await readFile(file, "utf8"));
      expect(rewritten.pins).toBeUndefined();
      expect(Object.keys(rewritten.servers).sort()).toEqual(["docs", "notes", "tracker"]);
    }
  });
});
