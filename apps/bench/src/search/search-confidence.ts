/**
 * How search's confidence labels (`strong` / `weak` / `faint`, search's
 * match-confidence.ts) hold on every query set: for each set, where the
 * first correct tool in the best 12 lands (strong, weak, or faint: below
 * the relevance cut and not shown), and for off-topic requests no catalog
 * tool serves (fixtures/search-offtopic-queries.jsonl, written for this
 * table) how often any hit is called strong. The labels never reorder, so
 * the quality tables are unchanged by them; this table is what they cost.
 */
import { fileURLToPath } from "node:url";
import { createSearchIndex, type MatchConfidence, rankTools } from "@pi-mcp-adapter/search";
import { loadQueries, toolKey } from "../eval-data.js";
import type { QuerySet } from "./search-sets.js";

const SHOWN = 12;
const offTopicFile = fileURLToPath(new URL("../../fixtures/search-offtopic-queries.jsonl", import.meta.url));

export interface ConfidenceRow {
  set: string;
  /** Queries whose correct tool is in the best `SHOWN`, by its label. */
  found: number;
  labels: Record<MatchConfidence, number>;
  /** Off-topic rows: queries with a strong hit (a false "sure"). */
  falseStrong?: number;
  queries: number;
}

/** One row per set, and one per catalog for the off-topic requests over it. */
export function measureConfidence(sets: readonly QuerySet[]): ConfidenceRow[] {
  const rows: ConfidenceRow[] = [];
  for (const set of sets) {
    const index = createSearchIndex(set.tools);
    const labels: Record<MatchConfidence, number> = { strong: 0, weak: 0, faint: 0 };
    let found = 0;
    for (const query of set.queries) {
      const hit = rankTools(query.query, index, { limit: SHOWN }).hits.find((h) =>
        query.relevant.includes(toolKey(h.tool)),
      );
      if (!hit?.confidence) continue;
      found++;
      labels[hit.confidence]++;
    }
    rows.push({ set: set.name, found, labels, queries: set.queries.length });
  }
  const offTopic = loadQueries(offTopicFile);
  // Each catalog once, under the first set that uses it (dev, LiveMCPBench, agent-13).
  const catalogs = new Map<readonly unknown[], string>();
  for (const s of sets) if (!catalogs.has(s.tools)) catalogs.set(s.tools, s.name);
  for (const [list, name] of catalogs) {
    const tools = sets.find((s) => s.tools === list)!.tools;
    const index = createSearchIndex(tools);
    const falseStrong = offTopic.filter((q) => (rankTools(q.query, index).strong ?? 0) > 0).length;
    rows.push({
      set: `off-topic over ${name}'s ${tools.length} tools`,
      found: 0,
      labels: { strong: 0, weak: 0, faint: 0 },
      falseStrong,
      queries: offTopic.length,
    });
  }
  return rows;
}

export function formatConfidence(rows: readonly ConfidenceRow[]): string {
  const lines = [
    "| set | queries | correct tool in best 12 | of those: strong / weak / faint (not shown) | requests with a strong hit |",
    "|---|---:|---:|---|---:|",
  ];
  for (const r of rows) {
    const { strong, weak, faint } = r.labels;
    lines.push(
      r.falseStrong === undefined
        ? `| ${r.set} | ${r.queries} | ${r.found} | ${strong} / ${weak} / ${faint} | — |`
        : `| ${r.set} | ${r.queries} | — | — | ${r.falseStrong} |`,
    );
  }
  return lines.join("\n");
}
