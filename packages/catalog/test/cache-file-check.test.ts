import { describe, expect, it } from "vitest";
import { isCacheFile } from "../src/cache-file-check.js";
import { CACHE_VERSION } from "../src/cache-file-constants.js";
import { CacheFileSchema } from "../src/schemas.js";

/** A cache file using every field the schema knows. */
const full = () => ({
  version: CACHE_VERSION,
  servers: {
    tracker: {
      key: "k",
      savedAt: 1,
      listing: {
        tools: [
          {
            name: "search_issues",
            title: "Search",
            description: "Search issues",
            inputSchema: { type: "object", properties: { q: { type: "string" } } },
            outputSchema: { type: "object" },
            annotations: { readOnlyHint: true },
            execution: { taskSupport: "optional" },
          },
        ],
        resources: [
          { uri: "mem://readme", name: "readme", title: "R", description: "d", mimeType: "text/plain" },
        ],
        resourceTemplates: [
          { uriTemplate: "mem://{id}", name: "item", title: "I", description: "d", mimeType: "x" },
        ],
        prompts: [
          {
            name: "triage",
            title: "T",
            description: "d",
            arguments: [{ name: "issue", description: "d", required: true }],
          },
        ],
        instructions: "Use project keys.",
        serverInfo: { title: "Tracker", description: "Issues and projects." },
        skipped: [{ list: "resources/templates/list", reason: "unsupported", error: "Method not found" }],
        refusedSkills: [
          { index: 1, uri: "skill://x/SKILL.md", name: "x", reason: "description must be 1-1024 characters" },
        ],
      },
    },
  },
  pins: {
    tracker: {
      identity: "i",
      tools: {
        search_issues: {
          fingerprint: "f",
          description: "Search issues",
          params: ["q"],
          schema: "s",
          annotations: { readOnlyHint: true },
          unreviewed: true,
        },
      },
    },
  },
});

/** Every path to a value inside `value` (objects and arrays). */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== "object" || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
}

function withValue(path: (string | number)[], replacement: unknown): unknown {
  const copy = full() as unknown as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement === DELETE) delete node[last];
  else node[last] = replacement;
  return copy;
}

const DELETE = Symbol("delete");
const replacements: unknown[] = [DELETE, null, 5, Number.NaN, "text", true, [], {}, [{}]];

describe("isCacheFile", () => {
  it("accepts a file using every field, and what zod accepts after any one field is changed", () => {
    expect(isCacheFile(full(), CACHE_VERSION)).toBe(true);
    let checked = 0;
    for (const path of paths(full()).filter((p) => p.length > 0)) {
      for (const replacement of replacements) {
        const sample = withValue(path, replacement);
        const zod = CacheFileSchema.safeParse(sample).success;
        expect({
          path: path.join("."),
          replacement: String(replacement),
          ours: isCacheFile(sample, CACHE_VERSION),
        }).toEqual({
          path: path.join("."),
          replacement: String(replacement),
          ours: zod,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("rejects other versions and non-objects", () => {
    expect(isCacheFile({ ...full(), version: 99 }, CACHE_VERSION)).toBe(false);
    for (const value of [null, [], "x", 1]) expect(isCacheFile(value, CACHE_VERSION)).toBe(false);
  });
});
