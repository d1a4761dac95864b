/**
 * A config file that validated cleanly before is parsed without zod
 * (`copyValidated`); that is only right if the result is exactly what zod's
 * parse gives. Both run over every config document in the repository — the
 * examples, every JSON block of the docs and READMEs that is a config — and
 * over generated entries and settings full of what zod changes (unknown keys
 * in objects it strips, keys in another order); every layer that validated
 * cleanly must come out deeply equal, problems (warnings) included.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsoncText } from "../../src/files/read-json-file.js";
import { type ConfigLayer, parseConfigLayer } from "../../src/layers/config-layer.js";
import { copyValidated } from "../../src/layers/layer-check.js";
import { zodLayerCheck } from "../../src/layers/zod-layer-check.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const CONFIG_KEYS = ["mcpServers", "mcp", "settings"];

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : filesUnder(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

/** Every config document in the repo: example files, and JSON(C) blocks of the docs that parse as a config. */
function repoDocuments(): { where: string; document: unknown }[] {
  const documents: { where: string; document: unknown }[] = [];
  const add = (where: string, text: string) => {
    const parsed = parseJsoncText(where, text);
    if (parsed.kind !== "ok" || typeof parsed.value !== "object" || parsed.value === null) return;
    if (CONFIG_KEYS.some((key) => key in (parsed.value as object)))
      documents.push({ where, document: parsed.value });
  };
  for (const file of filesUnder(path.join(ROOT, "examples"), /\.jsonc?$/))
    add(file, readFileSync(file, "utf8"));
  const markdown = [
    path.join(ROOT, "README.md"),
    ...filesUnder(path.join(ROOT, "docs"), /\.md$/),
    ...readdirSync(path.join(ROOT, "packages")).map((p) => path.join(ROOT, "packages", p, "README.md")),
  ];
  for (const file of markdown) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    let index = 0;
    for (const block of text.matchAll(/```jsonc?\n([\s\S]*?)```/g))
      add(`${file} block ${index++}`, block[1] ?? "");
  }
  return documents;
}

const clean = (layer: ConfigLayer) => !layer.problems.some((p) => p.severity === "error");

/** Both parses of one document; `undefined` when zod found an error (such a file is never copied). */
function bothWays(document: unknown, file = "/x/mcp.json") {
  const validated = parseConfigLayer(structuredClone(document), file, "user", zodLayerCheck);
  if (!clean(validated)) return undefined;
  return { validated, copied: parseConfigLayer(structuredClone(document), file, "user", copyValidated) };
}

describe("a validated file parsed without zod", () => {
  it("gives zod's result for every config document in the repository", () => {
    const documents = repoDocuments();
    let compared = 0;
    for (const { where, document } of documents) {
      const both = bothWays(document, where);
      if (!both) continue;
      compared++;
      expect(both.copied, where).toStrictEqual(both.validated);
      // Key order too: what is hashed or shown is built from these objects.
      expect(JSON.stringify(both.copied), where).toBe(JSON.stringify(both.validated));
    }
    // Ten whole, valid configs today (the demo's `.mcp.json` and the docs' blocks): a test that compared
    // none would prove nothing.
    expect(compared).toBeGreaterThanOrEqual(10);
  });

  it("gives zod's result for generated entries and settings, unknown and reordered keys included", () => {
    const extra = fc.dictionary(fc.constantFrom("x-note", "colour", "legacy"), fc.jsonValue(), {
      maxKeys: 2,
    });
    const strings = fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 });
    const stringMap = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), {
      maxKeys: 3,
    });
    const stdio = fc.record(
      {
        command: fc.string({ minLength: 1, maxLength: 10 }),
        args: strings,
        env: stringMap,
        lifecycle: fc.constantFrom("lazy", "eager", "keep-alive", "lazy-keep-alive"),
        sandbox: fc.oneof(
          fc.boolean(),
          fc.constant({ filesystem: { denyRead: ["~/.ssh"] }, network: { allow: ["api.github.com"] } }),
        ),
        requestHeadersCommand: fc
          .tuple(fc.string({ minLength: 1, maxLength: 6 }), extra, strings)
          .map(([command, more, args]) => ({ ...more, args, command })),
        includeTools: strings,
        directTools: fc.oneof(fc.boolean(), fc.constant("auto"), strings),
        approveTools: fc.oneof(fc.boolean(), fc.constantFrom("destructive", "writes"), strings),
        searchKeywords: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), strings, { maxKeys: 2 }),
        disabled: fc.boolean(),
        tasks: fc.constantFrom("auto", "always", "never"),
      },
      { requiredKeys: ["command"] },
    );
    const http = fc.record(
      {
        url: fc.webUrl(),
        headers: stringMap,
        auth: fc.constantFrom(false, "oauth", "bearer"),
        oauth: fc.oneof(
          fc.constant(false as const),
          fc
            .record({
              clientId: fc.string({ minLength: 1, maxLength: 6 }),
              scopes: strings,
              dpop: fc.boolean(),
            })
            .chain((o) => extra.map((more) => ({ ...more, ...o }))),
        ),
        requestTimeoutMs: fc.integer({ min: 1, max: 100_000 }),
        toolPrefix: fc.constantFrom("server", "short", "none", "mcp"),
      },
      { requiredKeys: ["url"] },
    );
    const entry = fc.tuple(fc.oneof(stdio, http), extra).map(([e, more]) => ({ ...more, ...e }));
    const settings = fc.record(
      {
        toolPrefix: fc.constantFrom("server", "short", "none", "mcp"),
        trace: fc.tuple(fc.boolean(), extra).map(([enabled, more]) => ({ ...more, enabled })),
        captureStats: fc.oneof(
          fc.boolean(),
          extra.map((more) => ({ ...more, file: "stats.json" })),
        ),
        outputGuard: fc.oneof(fc.boolean(), fc.constant({ maxLines: 10, maxBytes: 100 })),
        approveTools: fc.oneof(fc.boolean(), strings),
        toonEncode: fc.oneof(fc.boolean(), strings),
        spillMaxAgeDays: fc.double({ min: 0.01, max: 30, noNaN: true }),
        unknownSetting: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const document = fc.record(
      {
        mcpServers: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), entry, { maxKeys: 3 }),
        settings,
      },
      { requiredKeys: [] },
    );
    let compared = 0;
    fc.assert(
      fc.property(document, (doc) => {
        const both = bothWays(doc);
        if (!both) return;
        compared++;
        expect(both.copied).toStrictEqual(both.validated);
        expect(JSON.stringify(both.copied)).toBe(JSON.stringify(both.validated));
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThanOrEqual(100);
  });
});
