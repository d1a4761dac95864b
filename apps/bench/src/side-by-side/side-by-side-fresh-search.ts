/**
 * The built-in's `tool_search` the way a user meets it: a fresh Pi session
 * per eval query (deferred exposure), one `tool_search` call each, scored
 * like the one-session run. In one long session every tool a search loaded
 * drops out of later searches, so that figure is reported beside this one.
 */
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import type { EvalData } from "../eval-data.js";
import { firstRelevantRank, type QualityScores, scoreRanks } from "../metrics.js";
import type { BenchProject } from "./side-by-side-project.js";
import { nameIndex, rankedKeys, searchStepFor } from "./side-by-side-search-steps.js";

export async function measureFreshSearch(
  project: BenchProject,
  data: EvalData,
  log: (line: string) => void,
): Promise<QualityScores> {
  const names = nameIndex(data)[project.adapter.id as "deferred"];
  const ranks: (number | undefined)[] = [];
  let unread = 0;
  for (const [i, query] of data.queries.entries()) {
    const run = await project.run([searchStepFor(project.adapter.id, query.query)]);
    const text = run.requests[1] ? (toolResultTexts(run.requests[1]).at(-1) ?? "") : "";
    const ranked = rankedKeys(text, names).slice(0, 10);
    if (ranked.length === 0) unread++;
    // A changed output format would read as zero recall: stop instead.
    if (unread > data.queries.length / 2) {
      throw new Error(
        `${project.adapter.label}: no tool names read from ${unread} fresh-session searches:\n${text}`,
      );
    }
    ranks.push(firstRelevantRank(ranked, query.relevant));
    if ((i + 1) % 20 === 0) log(`  fresh-session search ${i + 1}/${data.queries.length}`);
  }
  return scoreRanks(ranks);
}
