/**
 * `regex: true` search as the runtime runs it (`searchTools`, which scans in
 * slices and yields between them): the longest stretch one search holds the
 * event loop (a heartbeat scheduled beside it sees every gap), and the whole
 * search's time from the call to its answer or refusal, for ordinary and
 * catastrophic-backtracking patterns, over the eval catalog and the synthetic
 * 10,000/100,000-tool catalogs. The baseline is JavaScript's own RegExp over
 * the same fields; for the backtracking pattern it runs in a worker that is
 * stopped after a deadline, since it would otherwise not return.
 */
import { Worker } from "node:worker_threads";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { searchTools } from "@pi-mcp-adapter/search";
import type { EvalData } from "../eval-data.js";
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
  /** The longest hold of the event loop in the first search (re2js loaded or warming up) and in the rest, ms. */
  firstMs: number;
  maxMs: number;
  /** The whole search, call to answer, median of the rounds after the first, ms. */
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

/** Runs `run` beside a heartbeat: its result, the whole time, and the longest the event loop went without a beat. */
async function held<T>(run: () => Promise<T>): Promise<[T | Error, number, number]> {
  const start = performance.now();
  let last = start;
  let longest = 0;
  let done = false;
  const beat = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (!done) setImmediate(beat);
  };
  setImmediate(beat);
  let value: T | Error;
  try {
    value = await run();
  } catch (error) {
    value = error as Error;
  }
  done = true;
  const end = performance.now();
  return [value, end - start, Math.max(longest, end - last)];
}

async function measureAt(tools: readonly ToolMetadata[], pattern: string, baseline: number | string) {
  const holds: number[] = [];
  const totals: number[] = [];
  let outcome = "";
  for (let r = 0; r < ROUNDS; r++) {
    const [result, total, hold] = await held(() => searchTools(pattern, tools, { regex: true }));
    holds.push(hold);
    totals.push(total);
    outcome =
      result instanceof Error
        ? `refused: ${(result as { code?: string }).code ?? result.message}`
        : `${result.total} hits`;
  }
  const rest = totals.slice(1).sort((a, b) => a - b);
  return {
    tools: tools.length,
    pattern,
    firstMs: holds[0]!,
    maxMs: Math.max(...holds.slice(1)),
    medianMs: rest[Math.floor(rest.length / 2)]!,
    outcome,
    baselineMs: baseline,
  } satisfies RegexRow;
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
    ...(await measureAt([one(BACKTRACKING_TEXT)], BACKTRACKING, backtrackingBaseline)),
    label: "1 (49 chars)",
  });
  const long = one(`${"Describe the thing in many words ".repeat(320)}!`);
  rows.push({ ...(await measureAt([long], BACKTRACKING, "—")), label: "1 (10 KB text)" });
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
      rows.push(await measureAt(tools, pattern, baseline));
    }
  }
  return rows;
}

export function formatRegex(rows: RegexRow[]): string {
  const lines = [
    `| tools | pattern | longest hold ms, first search | longest hold ms, later searches | whole search median ms | outcome | JS RegExp median ms |`,
    "|---:|---|---:|---:|---:|---|---:|",
  ];
  for (const row of rows) {
    const tools = row.label ?? String(row.tools);
    lines.push(
      `| ${tools} | \`${row.pattern.replace(/\|/g, "\\|")}\` | ${row.firstMs.toFixed(1)} | ${row.maxMs.toFixed(1)} | ${row.medianMs.toFixed(2)} | ${row.outcome} | ${row.baselineMs} |`,
    );
  }
  return lines.join("\n");
}
