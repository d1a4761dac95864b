/**
 * Plain-text renderings of search, describe and a server's details, shared by
 * the proxy tool and the CLI (the status texts are in status-text.ts). They are read by
 * a model first, so they are short and stable. Each carries server text
 * (names, descriptions, errors, instructions), so each comes out through
 * `stripControlSequences`: no escape sequence reaches a terminal or the model.
 */

import { instructionsPreview } from "@pi-mcp-adapter/catalog";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import {
  type MatchConfidence,
  type RankedTool,
  type RankResult,
  renderSchemaShape,
} from "@pi-mcp-adapter/search";
import type { CatalogView } from "../catalog/listings.js";
import { unavailableLine } from "../catalog/unavailable-servers.js";
import type { ServerSummary } from "../observability/status-events.js";
import { dedentDescription, descriptionFirstLine } from "./description-text.js";

/** Longest parameter shape shown per search hit / in describe. */
const SEARCH_SHAPE_CHARS = 300;
const DESCRIBE_SHAPE_CHARS = 1200;
/** Weak matches shown when none is strong. */
const WEAK_SHOWN = 5;
const TRY_INSTEAD =
  'Try other words for what the tool does, mcp({}) for the servers and what they offer, or mcp({search: "words", server: "name"}) within one server.';

export interface FormatOptions {
  /** Add each tool's parameters as a compact TypeScript-like shape. */
  includeSchemas?: boolean;
}

export function formatSearch(
  query: string,
  result: RankResult & Pick<CatalogView, "unavailable">,
  options: FormatOptions = {},
): string {
  const lines: string[] = [];
  const hitLine = ({ tool, confidence }: RankedTool) => {
    lines.push(
      `- ${tool.prefixedName}${kindMark(tool)}: ${firstLine(tool.description)}${weakMark(confidence)}`,
    );
    if (options.includeSchemas) {
      lines.push(`  args: ${renderSchemaShape(tool.inputSchema, { maxLength: SEARCH_SHAPE_CHARS })}`);
    }
  };
  if (result.hits.length === 0) {
    lines.push(`No tools match "${query}".`, TRY_INSTEAD);
  } else if (result.strong === 0) {
    // Ranked, and only a shared word or a near spelling made these match: say so rather than count them.
    lines.push(`No strong match for "${query}". Closest, each a weak match:`);
    for (const hit of result.hits.slice(0, WEAK_SHOWN)) hitLine(hit);
    lines.push(TRY_INSTEAD);
  } else {
    lines.push(`${result.total} ${result.total === 1 ? "tool matches" : "tools match"} "${query}":`);
    for (const hit of result.hits) hitLine(hit);
    if (result.nextOffset !== undefined) lines.push(`More: mcp({search, offset: ${result.nextOffset}})`);
  }
  for (const u of result.unavailable) lines.push(unavailableLine(u));
  return stripControlSequences(lines.join("\n"));
}

export function formatDescribe(tool: ToolMetadata, options: FormatOptions = {}): string {
  const what =
    tool.kind === "resource"
      ? `resource ${tool.uriTemplate ?? tool.uri ?? tool.name}`
      : `${tool.kind} ${tool.name}`;
  const lines = [`${tool.prefixedName} (server ${tool.server}, ${what})`];
  const description = dedentDescription(tool.description);
  if (description) lines.push(description);
  const params = describeParameters(tool.inputSchema);
  lines.push(params.length ? "Parameters:" : "Parameters: none");
  lines.push(...params);
  if (options.includeSchemas) {
    lines.push(`Shape: ${renderSchemaShape(tool.inputSchema, { maxLength: DESCRIBE_SHAPE_CHARS })}`);
  }
  lines.push(`Call: mcp({tool: "${tool.prefixedName}", args: {...}})`);
  return stripControlSequences(lines.join("\n"));
}

/** `mcp({server})`: state, tool count and a preview of the server's instructions. */
export function formatServerDetails(
  name: string,
  summary: ServerSummary | undefined,
  view: CatalogView,
  instructions: string | undefined,
): string {
  const count = (kind: ToolMetadata["kind"]) => view.tools.filter((t) => t.kind === kind).length;
  const extra = [
    [count("resource"), "resources"],
    [count("prompt"), "prompts"],
  ]
    .filter(([n]) => n)
    .map(([n, label]) => `, ${n} ${label}`)
    .join("");
  const lines = [`${name}: ${summary?.state ?? "unknown"}, ${count("tool")} tools${extra}`];
  for (const u of view.unavailable) lines.push(u.sentence ? `(${u.error})` : `(unavailable: ${u.error})`);
  if (instructions) {
    const preview = instructionsPreview(instructions);
    lines.push("Instructions:", preview);
    if (preview.length < instructions.trim().length) lines.push(`Full text: mcp({instructions: "${name}"})`);
  }
  lines.push(`Find its tools: mcp({search: "words", server: "${name}"})`);
  return stripControlSequences(lines.join("\n"));
}

/** `mcp({instructions})`: the full text the server sent at connect time. */
export function formatInstructions(name: string, instructions: string | undefined): string {
  return instructions?.trim()
    ? stripControlSequences(`Instructions of ${name}:\n${instructions.trim()}`)
    : `${name} sent no instructions.`;
}

function describeParameters(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, prop]) => {
    const type = Array.isArray(prop.enum)
      ? prop.enum.map((v) => JSON.stringify(v)).join(" | ")
      : String(prop.type ?? "any");
    const flags = [type, required.has(name) ? "required" : "optional"];
    if (prop.default !== undefined) flags.push(`default ${JSON.stringify(prop.default)}`);
    // Dedented, its line ends read, continuation lines indented under the entry.
    const text = typeof prop.description === "string" ? dedentDescription(prop.description) : "";
    const description = text ? `: ${text.replace(/\n/g, "\n    ")}` : "";
    return `- ${name} (${flags.join(", ")})${description}`;
  });
}

/** Search marks what is not a tool: `[resource]` (read it with `tool`, template variables as args) or `[prompt]`. */
function kindMark(tool: ToolMetadata): string {
  if (tool.kind === "resource") return tool.uriTemplate ? " [resource template]" : " [resource]";
  return tool.kind === "prompt" ? " [prompt]" : "";
}

/** A weak match among strong ones is marked; strong ones carry no mark. */
function weakMark(confidence: MatchConfidence | undefined): string {
  return confidence === "weak" ? " (weak match)" : "";
}

function firstLine(text: string): string {
  const line = descriptionFirstLine(text);
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
