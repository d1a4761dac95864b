/**
 * The server processes each column keeps: how many processes run below Pi
 * when the scripted model receives the first request (38 lazy catalog
 * servers, warm metadata cache), and their PSS summed when the request after
 * the session's first search arrives (the search result is in, Pi is still
 * running). Read from /proc (`side-by-side-processes.ts`); runs interleaved
 * round by round, medians.
 */
import type { ChatRequest, ScriptStep } from "@pi-mcp-adapter/test-kit";
import { median } from "../transport/transport-measure.js";
import { piServers } from "./side-by-side-processes.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { searchStepFor } from "./side-by-side-search-steps.js";
import { warmCaches } from "./side-by-side-startup.js";

export interface ServersResult {
  rounds: number;
  /** Processes below Pi at its first model request, median per column. */
  aliveAtFirstRequest: Partial<Record<AdapterId, number>>;
  /** PSS of the processes below Pi after the first search, MiB, median per column. */
  pssAfterSearchMiB: Partial<Record<AdapterId, number>>;
  /** Processes below Pi at that point, median per column. */
  aliveAfterSearch: Partial<Record<AdapterId, number>>;
}

export async function measureServers(
  projects: BenchProject[],
  servers: number,
  rounds: number,
  query: string,
): Promise<ServersResult> {
  const columns = projects.filter((p) => p.adapter.kind !== "none");
  await warmCaches(columns, servers);
  const seen = new Map<AdapterId, { first: number[]; after: number[]; pss: number[] }>(
    columns.map((p) => [p.adapter.id, { first: [], after: [], pss: [] }]),
  );
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < columns.length; k++) {
      const p = columns[(r + k) % columns.length]!;
      const figures = seen.get(p.adapter.id)!;
      const search = searchStepFor(p.adapter.id, query);
      await p.run([
        (_: ChatRequest): ScriptStep => {
          figures.first.push(piServers(p.project.dir).processes);
          return search;
        },
        (_: ChatRequest): ScriptStep => {
          const now = piServers(p.project.dir);
          figures.after.push(now.processes);
          figures.pss.push(now.pssMiB);
          return { text: "Done." };
        },
      ]);
      // A failed /proc read fails the scripted answer, not the run: check both figures arrived.
      if (figures.first.length !== r + 1 || figures.pss.length !== r + 1) {
        throw new Error(
          `${p.adapter.label}: the server processes below Pi could not be read (round ${r + 1})`,
        );
      }
    }
  }
  const pick = (key: "first" | "after" | "pss") =>
    Object.fromEntries(columns.map((p) => [p.adapter.id, median(seen.get(p.adapter.id)![key])]));
  return {
    rounds,
    aliveAtFirstRequest: pick("first"),
    pssAfterSearchMiB: pick("pss"),
    aliveAfterSearch: pick("after"),
  };
}
