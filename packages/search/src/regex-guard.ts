/**
 * `regex: true` search that cannot freeze the host. Patterns run on RE2
 * (`re2js`: linear-time matching, no backtracking), loaded on the first regex
 * search only. Before compiling, a pattern is refused when it is longer than
 * 500 characters, uses what RE2 lacks (backreferences, lookaround) or expands
 * past a size cap through counted repetition (`x{1000}` compiles to 1,000
 * copies); each field is matched on its first 16K characters; and the scan over
 * the catalog stops with an error once it has used its time budget (CPU time,
 * with a wall-clock bound of five budgets on a busy machine). Every
 * refusal is a `SearchError` that names the problem and suggests plain words.
 */
import { createRequire } from "node:module";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import type { RE2JS } from "re2js";
import { SearchError } from "./errors.js";
import { keywordsForTool, type SearchKeywords } from "./indexing/search-keywords.js";

/** Longest pattern accepted, in characters. */
export const MAX_REGEX_LENGTH = 500;
/** Largest expansion accepted (about one unit per compiled instruction); a long program makes matching slow. */
export const MAX_REGEX_SIZE = 1000;
/** Characters of each field a pattern sees. */
export const MAX_REGEX_TEXT = 16_384;
/** How much work (CPU ms) a scan may do, compile included (loading re2js on first use is not), before it stops. */
export const REGEX_BUDGET_MS = 80;

const PLAIN_WORDS = "or search with plain words (regex: false)";

export interface RegexScanOptions {
  /** Only tools this accepts are matched. */
  accept?: (tool: ToolMetadata) => boolean;
  /** Per-server extra search words, matched like the other fields. */
  searchKeywords?: SearchKeywords;
  /** Milliseconds of work the scan may do before it throws `regex_too_slow` (default `REGEX_BUDGET_MS`). */
  budgetMs?: number;
  /**
   * The work clock, in milliseconds: by default this process's CPU time, so a
   * busy machine does not stop a search that does little work. A scan also
   * stops after `WALL_FACTOR` times the budget of wall time, whatever the clock.
   */
  now?: () => number;
}

/** However slow the machine, a scan never blocks for more than this many budgets of wall time. */
const WALL_FACTOR = 5;
/** The clocks are read once per this many tools (reading CPU time is a system call). */
const CHECK_EVERY = 16;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The tools whose prefixed name, original name, description or keywords the
 * case-insensitive pattern matches, in catalog order. Throws `SearchError`
 * when the pattern is refused or the scan runs past its budget.
 */
export function matchToolsByRegex(
  query: string,
  tools: readonly ToolMetadata[],
  options: RegexScanOptions = {},
): ToolMetadata[] {
  const now = options.now ?? cpuMs;
  const budget = options.budgetMs ?? REGEX_BUDGET_MS;
  // Loading the engine is a one-time cost of the first regex search, not of this pattern.
  re2js();
  const started = now();
  const wallStarted = performance.now();
  const spent = () => now() - started > budget || performance.now() - wallStarted > budget * WALL_FACTOR;
  const scan = regexScan(query, tools, options);
  for (let i = 0; i < tools.length; i++) {
    if (i % CHECK_EVERY === 0 && spent()) throw scan.tooSlow(i, `${budget} ms`);
    scan.visit(i);
  }
  return scan.out;
}

export interface SlicedRegexScanOptions extends Omit<RegexScanOptions, "budgetMs" | "now"> {
  /** Longest stretch the scan holds the event loop before it lets other work run, ms (default 10). */
  sliceMs?: number;
  /** Wall time after which the whole scan stops with `regex_too_slow`, ms (default 2,000). */
  totalMs?: number;
}

/**
 * `matchToolsByRegex` for a host that must stay responsive: the scan runs in
 * slices of about `sliceMs` and yields to the event loop between them, so a
 * catalog of any size never holds it for longer than one slice (plus one
 * field's match, bounded by the size and text caps). It stops with
 * `regex_too_slow` once `totalMs` of wall time has passed.
 */
export async function matchToolsByRegexInSlices(
  query: string,
  tools: readonly ToolMetadata[],
  options: SlicedRegexScanOptions = {},
): Promise<ToolMetadata[]> {
  const sliceMs = options.sliceMs ?? 10;
  const totalMs = options.totalMs ?? 2_000;
  re2js();
  const started = performance.now();
  const scan = regexScan(query, tools, options);
  let sliceStarted = started;
  for (let i = 0; i < tools.length; i++) {
    if (i % CHECK_EVERY === 0) {
      const now = performance.now();
      if (now - started > totalMs) throw scan.tooSlow(i, `${totalMs} ms`);
      if (now - sliceStarted > sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    scan.visit(i);
  }
  return scan.out;
}

/** The compiled pattern and the matches so far, one tool at a time. */
function regexScan(query: string, tools: readonly ToolMetadata[], options: RegexScanOptions) {
  const pattern = compileSearchRegex(query);
  const test = (text: string) =>
    pattern.test(text.length > MAX_REGEX_TEXT ? text.slice(0, MAX_REGEX_TEXT) : text);
  const out: ToolMetadata[] = [];
  return {
    out,
    visit(i: number): void {
      const tool = tools[i]!;
      if (options.accept && !options.accept(tool)) return;
      if (
        test(tool.prefixedName) ||
        test(tool.name) ||
        test(tool.description) ||
        keywordsForTool(tool, options.searchKeywords).some(test)
      )
        out.push(tool);
    },
    tooSlow(searched: number, after: string): SearchError {
      return new SearchError(
        "regex_too_slow",
        `regex search for ${quote(query)} stopped after ${after}, with ${searched} of ${tools.length} tools searched ` +
          `(${out.length} matched so far). Narrow it with server, ${PLAIN_WORDS}.`,
      );
    },
  };
}

/** The query compiled for RE2, case-insensitive; throws `SearchError` for a pattern it will not run. */
export function compileSearchRegex(query: string): RE2JS {
  if (query.length > MAX_REGEX_LENGTH) {
    throw new SearchError(
      "regex_too_large",
      `regex search takes patterns of up to ${MAX_REGEX_LENGTH} characters; ${quote(query)} has ${query.length}. ` +
        `Use a shorter pattern, ${PLAIN_WORDS}.`,
    );
  }
  const { unsupported, size } = inspectPattern(query);
  if (unsupported) {
    throw new SearchError(
      "unsupported_regex",
      `regex search runs on RE2 (linear time, no backtracking), which has no ${unsupported}; ${quote(query)} uses it. ` +
        `Rewrite the pattern without it, ${PLAIN_WORDS}.`,
    );
  }
  if (size > MAX_REGEX_SIZE) {
    throw new SearchError(
      "regex_too_large",
      `regex search caps counted repetition: ${quote(query)} expands to about ${size} steps (at most ${MAX_REGEX_SIZE}). ` +
        `Use smaller {n,m} counts, ${PLAIN_WORDS}.`,
    );
  }
  const { RE2JS } = re2js();
  try {
    // Models write JavaScript syntax (`\u00e9`, `(?<name>…)`, `[^]`); RE2 spells those differently.
    return RE2JS.compile(RE2JS.translateRegExp(query), RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new SearchError(
      "invalid_regex",
      `search with regex: true needs a valid regular expression; ${quote(query)} is not (${syntaxProblem(error)}). ` +
        `Fix the pattern, ${PLAIN_WORDS}.`,
      { cause: error },
    );
  }
}

/**
 * One pass over a pattern: the first feature RE2 lacks, and roughly how many
 * instructions it compiles to (counted repetition multiplies what it repeats).
 */
function inspectPattern(pattern: string): { unsupported?: string; size: number } {
  const sizes = [0];
  let last = 0;
  const add = (size: number) => {
    last = size;
    sizes[sizes.length - 1]! += size;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if ((next >= "1" && next <= "9") || (next === "k" && pattern[i + 2] === "<"))
        return { unsupported: "backreferences (\\1, \\k<name>)", size: 0 };
      const braced = "pPx".includes(next) && pattern[i + 2] === "{" ? pattern.indexOf("}", i) : -1;
      i = braced > 0 ? braced : i + 1;
      add(1);
    } else if (c === "[") {
      i = classEnd(pattern, i);
      add(1);
    } else if (c === "(") {
      if (/^\(\?<?[=!]/.test(pattern.slice(i, i + 4)))
        return { unsupported: "lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…))", size: 0 };
      sizes.push(0);
    } else if (c === ")") {
      add((sizes.length > 1 ? sizes.pop()! : 0) + 1);
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i, i + 12))) {
      const [, min, comma, max] = /^\{(\d+)(,?)(\d*)\}/.exec(pattern.slice(i, i + 12))!;
      const count = max ? Number(max) : Number(min) + (comma ? 1 : 0);
      const extra = last * Math.max(0, count - 1);
      sizes[sizes.length - 1]! += extra;
      last += extra;
      i = pattern.indexOf("}", i);
    } else {
      add(1);
    }
  }
  return { size: sizes.reduce((sum, size) => sum + size, 0) };
}

/** Index of the `]` closing the character class opened at `start` (or the last index). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "[" && pattern[i + 1] === ":") i = Math.max(i, pattern.indexOf(":]", i + 2) + 1);
    else if (pattern[i] === "]") return i;
  }
  return pattern.length - 1;
}

function syntaxProblem(error: unknown): string {
  const syntax = error as { getDescription?: () => string; getPattern?: () => string | null };
  if (typeof syntax.getDescription !== "function") return String((error as Error).message ?? error);
  const at = syntax.getPattern?.()?.replace(/^\(\?i\)/, "");
  return at ? `${syntax.getDescription()} at \`${at.slice(0, 40)}\`` : syntax.getDescription();
}

function quote(query: string): string {
  return JSON.stringify(query.length > 80 ? `${query.slice(0, 80)}…` : query);
}

let loaded: typeof import("re2js") | undefined;
/** re2js, loaded on the first regex search (it is ~260 KB: most sessions never need it). */
function re2js(): typeof import("re2js") {
  loaded ??= createRequire(import.meta.url)("re2js") as typeof import("re2js");
  return loaded;
}
