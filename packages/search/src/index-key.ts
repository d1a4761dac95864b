/**
 * The key of a kept search index (`index-file.ts`): a SHA-256 over everything
 * the index was made of — each tool's names, server, description, input
 * schema and search keywords, each of its servers' own text as the
 * `serverContext` signal reads it (capped, so a huge instruction costs no more
 * than its first characters), the scoring constants, and which build of this
 * package (and of its word data) made it. A caller that can name its tools
 * more cheaply than by their text (the runtime: by the hashes of the cached
 * listings they were made from) gives a `toolsKey`, which then stands for the
 * tools' descriptions and schemas. Also whether two sets of such inputs are
 * the same, field by field, so bytes already keyed are not hashed again.
 */
import { createHash } from "node:crypto";
import { filesStamp, type ToolMetadata } from "@pi-mcp-adapter/core";
import { LEXICON_FILE } from "./data/lexicon.js";
import { VECTORS_FILE } from "./data/word-vectors.js";
import {
  DEFAULT_RANKING_WEIGHTS,
  FIELD_LENGTH_NORMALISATION,
  fieldWeightList,
  K1,
} from "./indexing/field-weights.js";
import { contextText, type ServerContext } from "./rank/server-context.js";

/** What an index's key is made of, besides the build. */
export interface KeyInputs {
  tools: readonly ToolMetadata[];
  keywords: readonly (readonly string[])[];
  /** Each server's text as the index reads it, in the order the servers first come among the tools. */
  contexts: readonly string[];
  /** The caller's name for exactly these tools (see `KeptIndexOptions.toolsKey`): hashed instead of their text. */
  toolsKey?: string;
}

/** The code and data an index depends on: this module's file (the package's bundle once built) and the word data. */
const MADE_BY = [new URL(import.meta.url), LEXICON_FILE, VECTORS_FILE];

/** Each server's text as `serverContext` reads it (`""`: none), in the order the servers first come in `tools`. */
export function contextTexts(tools: readonly ToolMetadata[], context: ServerContext | undefined): string[] {
  return [...new Set(tools.map((tool) => tool.server))].map((server) => contextText(context, server) ?? "");
}

/** The key of an index of these inputs, by this build; `undefined` when the build cannot be named. */
export function indexKey(
  { tools, keywords, contexts, toolsKey }: KeyInputs,
  format: number,
): string | undefined {
  const build = buildStamp();
  if (build === undefined) return undefined;
  const hash = createHash("sha256");
  hash.update(build);
  hash.update(
    JSON.stringify([format, DEFAULT_RANKING_WEIGHTS, fieldWeightList(), FIELD_LENGTH_NORMALISATION, K1]),
  );
  const parts: string[] = [];
  if (toolsKey !== undefined) {
    // The tools by the caller's name for them; their names are checked against the index's when it is read.
    parts.push("tools-key", toolsKey, String(tools.length));
    for (const words of keywords) parts.push(words.join("\u0001"));
  } else {
    tools.forEach((tool, doc) => {
      parts.push(
        tool.prefixedName,
        tool.name,
        tool.server,
        tool.description ?? "",
        schemaJson(tool.inputSchema),
        keywords[doc]!.join("\u0001"),
      );
    });
  }
  hash.update(parts.join("\u0000"));
  hash.update("\u0002");
  hash.update(JSON.stringify(contexts));
  return hash.digest("hex");
}

/** Whether two sets of inputs give `indexKey` the same inputs, field by field. */
export function sameKeyInputs(a: KeyInputs, b: KeyInputs): boolean {
  if (a.tools.length !== b.tools.length || a.contexts.length !== b.contexts.length) return false;
  if (a.toolsKey !== b.toolsKey) return false;
  for (let i = 0; i < a.contexts.length; i++) if (a.contexts[i] !== b.contexts[i]) return false;
  for (let doc = 0; doc < a.tools.length; doc++) {
    const x = a.tools[doc]!;
    const y = b.tools[doc]!;
    if (
      a.toolsKey === undefined &&
      x !== y &&
      (x.prefixedName !== y.prefixedName ||
        x.name !== y.name ||
        x.server !== y.server ||
        (x.description ?? "") !== (y.description ?? "") ||
        schemaJson(x.inputSchema) !== schemaJson(y.inputSchema))
    )
      return false;
    if (a.keywords[doc]!.join("\u0001") !== b.keywords[doc]!.join("\u0001")) return false;
  }
  return true;
}

/** The files of `MADE_BY` as this process found them (`null`: one could not be read); they do not change under it. */
let madeBy: string | null | undefined;

/** Which build makes and reads indexes here: core's `filesStamp` of `MADE_BY`, taken once per process. */
function buildStamp(): string | undefined {
  if (madeBy === undefined) madeBy = filesStamp(MADE_BY) ?? null;
  return madeBy ?? undefined;
}

/**
 * Input schemas as JSON, kept per schema object: the session's metadata and the start-up snapshot's (for
 * the warm-up's check) are other objects holding the same schemas.
 */
const schemaTexts = new WeakMap<object, string>();

function schemaJson(schema: ToolMetadata["inputSchema"]): string {
  if (typeof schema !== "object" || schema === null) return JSON.stringify(schema) ?? "";
  let text = schemaTexts.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    schemaTexts.set(schema, text);
  }
  return text;
}
