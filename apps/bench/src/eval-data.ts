/**
 * Loads the search evaluation data (tool catalogs of real MCP servers and
 * queries with their relevant tools) from the shared eval directory. The data
 * is read in place, never copied into the repository.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type JsonSchemaObject, prefixedToolName, type ToolMetadata } from "@pi-mcp-adapter/core";

export interface EvalQuery {
  id: string;
  query: string;
  serverHint: string | null;
  relevant: string[];
  style: string;
}

export interface EvalData {
  dir: string;
  tools: ToolMetadata[];
  queries: EvalQuery[];
  /** Per server, what it says about itself: `serverInfo` title and description, `instructions`, when recorded. */
  serverContext: Record<string, string>;
}

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** `PI_MCP_EVAL_DIR`, else `../shared/eval` beside the repository. */
export function evalDir(): string {
  return process.env.PI_MCP_EVAL_DIR ?? resolve(REPO_ROOT, "../shared/eval");
}

/** The key a query's `relevant` list uses for a tool. */
export function toolKey(tool: Pick<ToolMetadata, "server" | "name">): string {
  return `${tool.server}/${tool.name}`;
}

export function loadEvalData(dir = evalDir(), queryFile = "queries-dev.jsonl"): EvalData {
  const catalogDir = join(dir, "catalog");
  if (!existsSync(catalogDir)) {
    throw new Error(
      `Eval data not found: ${catalogDir} is missing (set PI_MCP_EVAL_DIR to the eval directory)`,
    );
  }
  const tools: ToolMetadata[] = [];
  const serverContext: Record<string, string> = {};
  for (const file of readdirSync(catalogDir).sort()) {
    if (!file.endsWith(".json") || file === "summary.json") continue;
    const parsed = JSON.parse(readFileSync(join(catalogDir, file), "utf8")) as {
      server: string;
      tools: { name: string; description?: string; inputSchema?: JsonSchemaObject }[];
      serverInfo?: { title?: string; description?: string };
      instructions?: string;
    };
    const { title, description } = parsed.serverInfo ?? {};
    const context = [title, description, parsed.instructions].filter(Boolean).join("\n");
    if (context) serverContext[parsed.server] = context;
    for (const tool of parsed.tools) {
      tools.push({
        server: parsed.server,
        name: tool.name,
        prefixedName: prefixedToolName(parsed.server, tool.name),
        description: tool.description ?? "",
        inputSchema: tool.inputSchema ?? { type: "object" },
        kind: "tool",
      });
    }
  }
  return { dir, tools, queries: loadQueries(join(dir, queryFile)), serverContext };
}

/** Queries of a JSON-lines file: `{id, query, server_hint, relevant: ["<server>/<tool>", …], style}` a line. */
export function loadQueries(path: string): EvalQuery[] {
  const queryFile = basename(path);
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      const raw = JSON.parse(line) as Record<string, unknown>;
      if (typeof raw.query !== "string" || !Array.isArray(raw.relevant)) {
        throw new Error(`${queryFile} line ${index + 1}: expected {query, relevant[]}`);
      }
      return {
        id: String(raw.id ?? index + 1),
        query: raw.query,
        serverHint: typeof raw.server_hint === "string" ? raw.server_hint : null,
        relevant: raw.relevant.map(String),
        style: String(raw.style ?? "unknown"),
      };
    });
}

/**
 * The check queries (`fixtures/search-check-queries.jsonl`): 40 task-style queries written for 40 tools
 * drawn at random (seeded, at most two per server) from the eval catalog, in the user's words rather than
 * the tool's. A second opinion beside the development set: check a change on them, never tune on them.
 */
export function loadCheckQueries(): EvalQuery[] {
  return loadQueries(fileURLToPath(new URL("../fixtures/search-check-queries.jsonl", import.meta.url)));
}
