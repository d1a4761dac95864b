/**
 * `regex: true` search: how long one search holds the event loop (compile and
 * scan, from the call to its answer or refusal), for ordinary and
 * catastrophic-backtracking patterns, over the eval catalog and the synthetic
 * 10,000/100,000-tool catalogs. The baseline is JavaScript's own RegExp over
 * the same fields; for the backtracking pattern it runs in a worker that is
 * stopped after a deadline, since it would otherwise not return.
 */
import { Worker } from "node:worker_threads";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { rankTools } from "@pi-mcp-adapter/search";
import type { EvalData } from "./eval-data.js";
import { syntheticCatalog } from "./search-latency.js";

const PATTERNS = [
  "^slack_.*(list|post)",
  "screenshot",
  "(create|delete)_.*(issue|branch)",
  "^([A-Za-z]+\\s?)+$",
];
const BACKTRACKING = "^([A-Za-z]+\\s?)+$";
/** A 49-character description that makes the backtracking pattern explode in JavaScript's RegExp. */
const BACKTRACKING_TEXT = "Create a new branch in a GitHub repository today!";
const BASELINE_DEADLINE_MS = 2_000;
const ROUNDS = 5;

export interface RegexRow {
  tools: number;
  /** What the tools column shows, when not the count. */
  label?: string;
  pattern: string;
  /** The first search (re2js loaded or warming up) and the slowest of the rest, ms. */
  firstMs: number;
  maxMs: number;
  medianMs: number;
  outcome: string;
  /** JavaScript's RegExp over the same fields, median ms (or the deadline it was stopped at). */
  baselineMs: number | string;
}

function timed<T>(fn: () => T): [T | Error, number] {
  const start = process.hrtime.bigint();
  let value: T | Error;
  try {
    value = fn();
  } catch (error) {
    value = error as Error;
  }
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}

function nativeScan(pattern: string, tools: readonly ToolMetadata[]): number {
  const re = new RegExp(pattern, "i");
  return tools.filter((t) => re.test(t.prefixedName) || re.test(t.name) || re.test(t.description)).length;
}

/** JavaScript's RegExp on the backtracking text, in a worker stopped at the deadline. */
async function nativeBacktracking(): Promise<string> {
  const source = `const { parentPort } = require("node:worker_threads");
    const start = performance.now();
    new RegExp(${JSON.stringify(BACKTRACKING)}).test(${JSON.stringify(BACKTRACKING_TEXT)});
    parentPort.postMessage(performance.now() - start);`;
  const worker = new Worker(source, { eval: true });
  const answer = await Promise.race([
    new Promise<number>((resolve) => worker.once("message", resolve)),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BASELINE_DEADLINE_MS)),
  ]);
  await worker.terminate();
  return answer === undefined ? `> ${BASELINE_DEADLINE_MS} (stopped)` : answer.toFixed(1);
}

function measureAt(tools: readonly ToolMetadata[], pattern: string, baseline: number | string): RegexRow {
  const times: number[] = [];
  let outcome = "";
  for (let r = 0; r < ROUNDS; r++) {
    const [result, ms] = timed(() => rankTools(pattern, tools, { regex: true }));
    times.push(ms);
    outcome =
      result instanceof Error
        ? `refused: ${(result as { code?: string }).code ?? result.message}`
        : `${result.total} hits`;
  }
  const rest = times.slice(1).sort((a, b) => a - b);
  return {
    tools: tools.length,
    pattern,
    firstMs: times[0]!,
    maxMs: rest[rest.length - 1]!,
    medianMs: rest[Math.floor(rest.length / 2)]!,
    outcome,
    baselineMs: baseline,
  };
}

export async function measureRegex(data: EvalData, options: { maxScale: number }): Promise<RegexRow[]> {
  const backtrackingBaseline = await nativeBacktracking();
  const rows: RegexRow[] = [];
  const one = (description: string): ToolMetadata => ({
    ...data.tools[0]!,
    name: "one_tool",
    prefixedName: "bench_one_tool",
    description,
  });
  rows.push({
    ...measureAt([one(BACKTRACKING_TEXT)], BACKTRACKING, backtrackingBaseline),
    label: "1 (49 chars)",
  });
  const long = one(`${"Describe the thing in many words ".repeat(320)}!`);
  rows.push({ ...measureAt([long], BACKTRACKING, "—"), label: "1 (10 KB text)" });
  for (const size of [data.tools.length, 10_000, 100_000]) {
    if (size > options.maxScale) continue;
    const tools = size === data.tools.length ? data.tools : syntheticCatalog(data.tools, size);
    for (const pattern of PATTERNS) {
      const baseline =
        pattern === BACKTRACKING
          ? "—"
          : (() => {
              const samples = Array.from({ length: 3 }, () => timed(() => nativeScan(pattern, tools))[1]);
              return samples.sort((a, b) => a - b)[1]!.toFixed(2);
            })();
      rows.push(measureAt(tools, pattern, baseline));
    }
  }
  return rows;
}

export function formatRegex(rows: RegexRow[]): string {
  const lines = [
    `| tools | pattern | first ms | median ms | max ms (after the first) | outcome | JS RegExp median ms |`,
    "|---:|---|---:|---:|---:|---|---:|",
  ];
  for (const row of rows) {
    const tools = row.label ?? String(row.tools);
    lines.push(
      `| ${tools} | \`${row.pattern.replace(/\|/g, "\\|")}\` | ${row.firstMs.toFixed(1)} | ${row.medianMs.toFixed(2)} | ${row.maxMs.toFixed(1)} | ${row.outcome} | ${row.baselineMs} |`,
    );
  }
  return lines.join("\n");
}
