/**
 * Baseline (a): the simple weighted keyword scorer the original adapter used
 * (exact 10 / substring 5 / description 4 / fallback 3). Each query word adds
 * the best of: the whole tool name equals it (10), the name contains it (5),
 * the description contains it (4), or the server or a parameter name
 * contains it (3). Case-insensitive, no tokenisation beyond spaces.
 */
import type { ToolMetadata } from "@pi-mcp-adapter/core";

export function keywordScorerRank(query: string, tools: readonly ToolMetadata[], limit = 10): ToolMetadata[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const scored: { tool: ToolMetadata; score: number }[] = [];
  for (const tool of tools) {
    const name = tool.prefixedName.toLowerCase();
    const original = tool.name.toLowerCase();
    const description = tool.description.toLowerCase();
    const rest =
      `${tool.server} ${Object.keys((tool.inputSchema.properties ?? {}) as object).join(" ")}`.toLowerCase();
    let score = 0;
    for (const word of words) {
      if (name === word || original === word) score += 10;
      else if (name.includes(word)) score += 5;
      else if (description.includes(word)) score += 4;
      else if (rest.includes(word)) score += 3;
    }
    if (score > 0) scored.push({ tool, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, limit).map((s) => s.tool);
}
