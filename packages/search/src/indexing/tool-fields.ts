/**
 * What the index holds of one tool: the terms of each field, in the order of
 * `FIELDS` (name, server, description, parameter names, parameter
 * descriptions and values, keywords, lexicon words describing the name).
 * Everything but the keywords (which depend on the config) is kept per tool
 * object, so an index rebuilt after one server's tools changed analyses only
 * that server's tools, and per text (`text-memo.ts`), so equal texts are
 * analysed once and analysis done ahead (`prepareSearch`) serves the first
 * index. The arrays returned are shared: the index only reads them. Like an
 * index, this takes tool metadata as never changed in place (a changed name
 * or description is seen; a schema edited in place is not).
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { describingStems, englishLexicon, type Lexicon } from "../data/lexicon.js";
import { letterCounts } from "../text/name-match.js";
import { stemAll, termsOf } from "../text/text-memo.js";
import { normalizeName, tokenize } from "../text/tokenize.js";
import { parameterText } from "./parameter-text.js";

/** Marks a name term that is an unstemmed surface form. */
export const SURFACE = "=";
/** Marks a term of the lexicon field (words describing a name word), kept apart from the same word elsewhere. */
export const DESCRIBED = "~";

/** A tool's name field and how many of its terms are the stems of its words. */
interface NameField {
  terms: readonly string[];
  stems: number;
}

/** The fields that do not depend on keywords or the lexicon, and the tool's names without separators. */
interface ToolText {
  /** What it was made of (with the input schema, by which it is also kept). */
  of: Pick<ToolMetadata, "name" | "prefixedName" | "server" | "description">;
  name: NameField;
  server: readonly string[];
  description: readonly string[];
  paramNames: readonly string[];
  paramValues: readonly string[];
  /** The name and the prefixed name without separators, and their letter counts (see `name-match.ts`). */
  compactNames: readonly [string, string];
  letters: readonly [Uint8Array, Uint8Array];
}

const MAX_NAMES = 40_000;
const nameFields = new Map<string, NameField>();
const toolTexts = new WeakMap<ToolMetadata, ToolText>();
/**
 * The same, by input schema object: the metadata built twice from one listing (the warm-up's and the
 * session catalog's, from the one metadata cache) are other objects holding the same schema and strings.
 */
const bySchema = new WeakMap<object, ToolText>();
const describedByLexicon = new WeakMap<Lexicon, Map<string, readonly string[]>>();

function nameField(name: string): NameField {
  let field = nameFields.get(name);
  if (field === undefined) {
    const tokens = tokenize(name);
    const terms = stemAll(tokens);
    const stems = terms.length;
    // The whole name written together, last among the stems (see the index's `longNameTerms`).
    terms.push(normalizeName(name));
    // Surface forms (`channels`, not only the stem `channel`) let an exact word outrank a stem match.
    for (const token of tokens) terms.push(`${SURFACE}${token}`);
    field = { terms, stems };
    if (nameFields.size < MAX_NAMES) nameFields.set(name, field);
  }
  return field;
}

function toolText(tool: ToolMetadata): ToolText {
  let text = toolTexts.get(tool);
  if (text !== undefined && sameText(text.of, tool)) return text;
  text = bySchema.get(tool.inputSchema);
  if (text === undefined || !sameText(text.of, tool)) {
    const parameters = parameterText(tool.inputSchema);
    const compactNames = [normalizeName(tool.name), normalizeName(tool.prefixedName)] as const;
    text = {
      of: {
        name: tool.name,
        prefixedName: tool.prefixedName,
        server: tool.server,
        description: tool.description,
      },
      name: nameField(tool.name),
      server: termsOf(tool.server),
      description: termsOf(tool.description),
      paramNames: termsOf(parameters.names.join(" ")),
      paramValues: termsOf(parameters.values),
      compactNames,
      letters: [letterCounts(compactNames[0]), letterCounts(compactNames[1])],
    };
    bySchema.set(tool.inputSchema, text);
  }
  toolTexts.set(tool, text);
  return text;
}

function sameText(a: ToolText["of"], b: ToolMetadata): boolean {
  return (
    a.name === b.name &&
    a.prefixedName === b.prefixedName &&
    a.server === b.server &&
    a.description === b.description
  );
}

/** The lexicon field of a name: the words describing its words, marked. */
function describedField(name: string, field: NameField, lexicon: Lexicon): readonly string[] {
  let byName = describedByLexicon.get(lexicon);
  if (!byName) {
    byName = new Map();
    describedByLexicon.set(lexicon, byName);
  }
  let described = byName.get(name);
  if (described === undefined) {
    described = describingStems(field.terms.slice(0, field.stems), lexicon).map((term) => DESCRIBED + term);
    if (byName.size < MAX_NAMES) byName.set(name, described);
  }
  return described;
}

/** The terms of each field of `tool` (see the module comment); `keywords` are its search keywords. */
export function fieldsOf(
  tool: ToolMetadata,
  keywords: readonly string[],
  lexicon: Lexicon,
): (readonly string[])[] {
  const text = toolText(tool);
  return [
    text.name.terms,
    text.server,
    text.description,
    text.paramNames,
    text.paramValues,
    keywords.length ? termsOf(keywords.join(" ")) : [],
    describedField(tool.name, text.name, lexicon),
  ];
}

/** The tool's name and prefixed name without separators (`normalizeName`), and their letter counts. */
export function compactNamesOf(tool: ToolMetadata): Pick<ToolText, "compactNames" | "letters"> {
  return toolText(tool);
}

/**
 * Analyses tools ahead of their first index (in idle time): their texts'
 * terms and the lexicon are ready when an index of them, or of other tool
 * objects with the same texts, is built. Nothing else changes.
 */
export function prepareSearch(tools: readonly ToolMetadata[], lexicon: Lexicon = englishLexicon): void {
  for (const tool of tools) fieldsOf(tool, [], lexicon);
}
