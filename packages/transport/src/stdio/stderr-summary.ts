/**
 * What a failure message quotes of a server's stderr (` — server stderr: …`):
 * the lines that say what went wrong, not merely the last ones. A crash's
 * last lines are its trailer (`}`, `Node.js v20…`, a stack frame); the line
 * that names the fault is the first error line — `Error:`, `TypeError:`,
 * `Exception`, a Python traceback's exception, `panic:`, `FATAL`, `error:`
 * — shown with the message lines after it, up to its stack trace, and a
 * Node error's `code`. Without an error line it is the last lines that are
 * not info or debug logs. Every place that puts stderr in a message goes
 * through `stderrHint`; a new kind of error line is one more pattern below.
 */

/** How many of the last stderr lines are searched for an error line. */
export const STDERR_SUMMARY_WINDOW = 50;
/** At most this many lines are quoted, each cut to `MAX_LINE_CHARS`. */
const MAX_LINES = 4;
const MAX_LINE_CHARS = 240;

/** Lines that name a fault. */
const ERROR_LINES = [
  // Error: …, TypeError: …, Error [ERR_X]: …, java.lang.IllegalStateException: …, Uncaught Error: …
  /(?:^|[\s[(])[A-Za-z_$][\w$.]*(?:Error|Exception)(?: \[[\w-]+\])?:(?:\s|$)/,
  /^Exception\b/,
  /^panic:|^thread '.*' panicked at/,
  // A log level: FATAL, ERROR or CRITICAL in capitals, [error], or a line that starts `fatal:` / `error:`.
  /\b(?:FATAL|ERROR|CRITICAL)\b/,
  /^(?:fatal|error)(?:\[\w+\])?:|\[(?:error|fatal)\]/i,
];
const TRACEBACK = /^Traceback \(most recent call last\):/;
/** Where a stack trace starts (Node, Python, Go, Rust): the message above it is complete. */
const STACK_FRAME = /^\s+at\s|^\s+File "|^goroutine \d+ \[|^\s+\d+: |^stack backtrace:/;
/** Lines that say nothing by themselves: braces, carets, the Node version trailer, a source excerpt. */
const FILLER = /^[\s{}[\]()^~|,;.]*$|^Node\.js v\d|^node:internal\/|^file:\/\/\S+:\d+$|^\s*throw \w+;$/;
/** Routine logs: an info/debug/trace line, bracketed or after a timestamp. */
const ROUTINE_LOG = /^\W*(?:\S*\d\S*\s+)?\W*(?:info|debug|trace|verbose|notice|log)\b/i;
const NODE_CODE = /^\s*code: (['"])[\w-]+\1,?$/;

/** ` — server stderr: a | b` for these stderr lines (oldest first); empty when there are none. */
export function stderrHint(lines: readonly string[]): string {
  const summary = summariseStderr(lines);
  return summary.length ? ` — server stderr: ${summary.join(" | ")}` : "";
}

/** The lines of a server's stderr (oldest first) that best say what went wrong. */
export function summariseStderr(all: readonly string[]): string[] {
  const lines = all.slice(-STDERR_SUMMARY_WINDOW).filter((line) => line.trim() !== "");
  const at = errorLineIndex(lines);
  const picked = at === undefined ? lastWords(lines) : errorBlock(lines, at);
  return picked.map(cut);
}

function errorLineIndex(lines: readonly string[]): number | undefined {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (TRACEBACK.test(line)) {
      // A Python traceback ends with its exception, the first line after it that is not indented.
      const exception = lines.findIndex((l, j) => j > i && !/^\s/.test(l) && !TRACEBACK.test(l));
      return exception >= 0 ? exception : i;
    }
    if (!FILLER.test(line) && !STACK_FRAME.test(line) && ERROR_LINES.some((p) => p.test(line))) return i;
  }
  return undefined;
}

/** The error line, the message lines after it up to its stack trace, and a Node error's code. */
function errorBlock(lines: readonly string[], at: number): string[] {
  const block = [lines[at]!.trim()];
  let i = at + 1;
  for (; i < lines.length && block.length < MAX_LINES - 1 && !STACK_FRAME.test(lines[i]!); i++) {
    const line = lines[i]!.trim();
    if (FILLER.test(line) || ROUTINE_LOG.test(line)) continue;
    // `Require stack:` and its first entry read as one line.
    const last = block.length - 1;
    if (last > 0 && block[last]!.endsWith(":")) block[last] = `${block[last]} ${line}`;
    else block.push(line);
  }
  const code = lines.slice(i).find((line) => NODE_CODE.test(line));
  if (code) block.push(code.trim().replace(/,$/, ""));
  return block;
}

/** The last lines that are not routine logs (or, when every line is one, the last lines). */
function lastWords(lines: readonly string[]): string[] {
  const telling = lines.filter((line) => !ROUTINE_LOG.test(line) && !FILLER.test(line));
  return (telling.length ? telling : lines).slice(-3).map((line) => line.trim());
}

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
