/**
 * Reads the rows of a source table: the `first` rows in table order, each
 * seeing the file layers read before it, then the `after-files` rows. The
 * results come back in table (precedence) order; problems about the sources
 * themselves come back in the order they were read.
 */
import type { ConfigLayer } from "../layers/config-layer.js";
import type { ConfigProblem } from "../problems.js";
import type { ConfigSource, SourceEnv, SourceRead, SourceTrust } from "./config-source.js";

export interface SourcesRead {
  /** One result per row, in table order. */
  reads: SourceRead[];
  /** Every row's own problems, in reading order. */
  problems: ConfigProblem[];
}

export async function readSources(
  table: readonly ConfigSource[],
  env: Omit<SourceEnv, "fileLayers">,
  trust: SourceTrust,
): Promise<SourcesRead> {
  const results = new Map<ConfigSource, SourceRead>();
  const problems: ConfigProblem[] = [];
  const fileLayers: ConfigLayer[] = [];
  for (const stage of ["first", "after-files"] as const) {
    for (const source of table) {
      if (source.reads !== stage) continue;
      const read = await source.read({ ...env, fileLayers: [...fileLayers] }, trust);
      if (stage === "first") fileLayers.push(...read.layers);
      problems.push(...read.problems);
      results.set(source, read);
    }
  }
  return {
    reads: table.map((source) => results.get(source) ?? { layers: [], files: [], problems: [] }),
    problems,
  };
}
