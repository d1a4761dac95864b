/**
 * Plain-text renderings shared by the proxy tool and the CLI. They are read by
 * a model first, so they are short and stable. Each carries server text
 * (names, descriptions, errors, instructions), so each comes out through
 * `stripControlSequences`: no escape sequence reaches a terminal or the model.
 */

import { instructionsHead, instructionsPreview } from "@pi-mcp-adapter/catalog";
import { type ConfigProblem, formatProblem } from "@pi-mcp-adapter/config";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import { type RankResult, renderSchemaShape } from "@pi-mcp-adapter/search";
import type { CatalogView } from "../catalog/runtime-catalog.js";
import { unavailableLine } from "../catalog/unavailable-servers.js";
import type { RunningTask } from "../observability/running-tasks.js";
import { sharedLabel } from "../observability/shared-label.js";
import type { McpTaskStatus, ServerSummary } from "../observability/status-events.js";

export function formatStatus(servers: ServerSummary[], problems: ConfigProblem[], now = Date.now()): string {
  const lines: string[] = [];
  if (servers.length === 0) {
    lines.push(
      problems.length
        ? "No MCP servers loaded (see below)."
        : "No MCP servers configured. Add servers to .mcp.json in the project (mcpServers).",
    );
  } else {
    lines.push(`MCP servers (${servers.length}):`);
    for (const s of servers) {
      const resources = s.resourceCount ? `, ${s.resourceCount} resources` : "";
      const prompts = s.promptCount ? `, ${s.promptCount} prompts` : "";
      const tools = s.toolCount === undefined ? "" : `, ${s.toolCount} tools${resources}${prompts}`;
      const retry =
        s.retryAt !== undefined && s.retryAt > now
          ? ` (next try in ${Math.ceil((s.retryAt - now) / 1000)}s)`
          : "";
      const failed =
        s.state === "failed" && s.failedAt !== undefined
          ? ` ${Math.round((now - s.failedAt) / 1000)}s ago: ${s.error ?? ""}${retry}`
          : "";
      const sandboxed = s.sandboxed ? " (sandboxed)" : "";
      const shared = sharedLabel(s.shared);
      lines.push(`- ${s.name}: ${s.state}${sandboxed}${shared ? `, ${shared}` : ""}${tools}${failed}`);
      for (const task of s.tasks ?? []) lines.push(`  ${formatRunningTask(task, now)}`);
      // The head of a server's instructions lives here rather than in the proxy tool's description,
      // which is in every prompt and must stay small however many servers there are.
      const head = instructionsHead(stripControlSequences(s.instructions ?? ""));
      if (head) lines.push(`  ${head}`);
    }
    lines.push('Use mcp({search: "words"}) to find tools.');
  }
  for (const problem of problems) lines.push(`${problem.severity}: ${formatProblem(problem)}`);
  return stripControlSequences(lines.join("\n"));
}

/** A running MCP task for `mcp({})`: tool, status, the server's message, how long, its id. */
function formatRunningTask(task: RunningTask, now: number): string {
  const message = task.message ? `: ${stripControlSequences(task.message)}` : "";
  const seconds = Math.max(0, Math.round((now - task.startedAt) / 1000));
  return `task ${task.tool} ${task.status.replace("_", " ")}${message} (${seconds}s, id ${task.taskId})`;
}

/**
 * A running MCP task in a few words for a status line or a progress line:
 * `everything · simulate-research-query: Analyzing content...` (the status
 * is named when it is not `working`, e.g. `input required: …`).
 */
export function formatTaskStatus(
  server: string,
  task: Pick<McpTaskStatus, "tool" | "status" | "message">,
): string {
  const state = task.status === "working" ? "" : task.status.replace("_", " ");
  const message = task.message ? stripControlSequences(task.message) : "";
  const text = [state, message].filter(Boolean).join(": ") || "working";
  return `${server} · ${task.tool}: ${text}`;
}

/** Longest parameter shape shown per search hit / in describe. */
const SEARCH_SHAPE_CHARS = 300;
const DESCRIBE_SHAPE_CHARS = 1200;

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
  if (result.hits.length === 0) {
    lines.push(`No tools match "${query}".`);
  } else {
    lines.push(`${result.total} ${result.total === 1 ? "tool matches" : "tools match"} "${query}":`);
    for (const { tool } of result.hits) {
      lines.push(`- ${tool.prefixedName}${kindMark(tool)}: ${firstLine(tool.description)}`);
      if (options.includeSchemas) {
        lines.push(`  args: ${renderSchemaShape(tool.inputSchema, { maxLength: SEARCH_SHAPE_CHARS })}`);
      }
    }
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
  if (tool.description) lines.push(tool.description);
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
    const description = typeof prop.description === "string" ? `: ${prop.description}` : "";
    return `- ${name} (${flags.join(", ")})${description}`;
  });
}

/** Search marks what is not a tool: `[resource]` (read it with `tool`, template variables as args) or `[prompt]`. */
function kindMark(tool: ToolMetadata): string {
  if (tool.kind === "resource") return tool.uriTemplate ? " [resource template]" : " [resource]";
  return tool.kind === "prompt" ? " [prompt]" : "";
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
