/**
 * The shared-servers table in the bench's results-table format: one column
 * per set-up (ours with `shareServers` on, ours with it off, Pi's built-in
 * MCP), the ratio on ÷ off, and design.md's targets for the shared column
 * (5 sessions × 10 servers → 10 processes, server memory ÷ 5, the second
 * session's first call warm, ≤ +0.2 ms per call through the daemon).
 */
import type { DaemonOverheadResult } from "../daemon/daemon-call-overhead.js";
import { formatResultsTable, type ResultRow } from "../results-table.js";
import { median } from "../transport/transport-measure.js";
import {
  type Footprint,
  SERVERS,
  SESSIONS,
  SHARED_COLUMNS,
  type SharedColumn,
  type SharedColumnResult,
} from "./shared-pi-sessions.js";

export interface SharedResult {
  columns: Partial<Record<SharedColumn, SharedColumnResult>>;
  daemon?: DaemonOverheadResult;
}

type Row = ResultRow<SharedColumn>;

const LABELS: Record<SharedColumn, string> = {
  shared: "ours, `shareServers` on",
  own: "ours, `shareServers` off",
  builtin: "Pi built-in (codemode)",
};

function each(r: SharedResult, value: (c: SharedColumnResult) => number): Row["values"] {
  return Object.fromEntries(
    SHARED_COLUMNS.filter((c) => r.columns[c]).map((c) => [c, value(r.columns[c]!)]),
  ) as Row["values"];
}

function footprintRows(r: SharedResult, part: "servers" | "pi" | "daemon" | "total", what: string): Row[] {
  const of = (c: SharedColumnResult) => c[part] as Footprint;
  return [
    { what: `${what}: processes`, values: each(r, (c) => of(c).processes), digits: 0 },
    { what: "  … RSS summed, MiB", values: each(r, (c) => of(c).rssMiB), digits: 0 },
    { what: "  … PSS summed, MiB", values: each(r, (c) => of(c).pssMiB), digits: 0 },
    { what: "  … USS summed (private pages), MiB", values: each(r, (c) => of(c).ussMiB), digits: 0 },
  ];
}

export function sharedRows(r: SharedResult): Row[] {
  const rows: Row[] = footprintRows(r, "servers", `Server processes once all ${SESSIONS} sessions called`);
  rows[0]!.target = [`${SERVERS}`, (v) => v === SERVERS];
  const own = r.columns.own?.servers.pssMiB;
  if (own !== undefined && r.columns.shared) {
    rows.push({
      what: "  … server PSS with sharing off ÷ on",
      values: { shared: own / r.columns.shared.servers.pssMiB },
      digits: 1,
      target: [`≥ ${SESSIONS}`, (v) => v >= SESSIONS],
    });
    rows.push({
      what: "  … server USS with sharing off ÷ on",
      values: { shared: r.columns.own!.servers.ussMiB / r.columns.shared.servers.ussMiB },
      digits: 1,
    });
  }
  rows.push(...footprintRows(r, "pi", "Pi processes"));
  rows.push(...footprintRows(r, "daemon", "Our daemon and its watchdog `sh`"));
  rows.push({ what: "Any other process below Pi", values: each(r, (c) => c.other.processes), digits: 0 });
  rows.push(...footprintRows(r, "total", "Everything (Pi + servers + daemon + any other)"));
  rows.push(
    {
      what: "The second session's first call (Pi's `durationMs`), ms",
      values: each(r, (c) => c.firstCallMs[1] ?? Number.NaN),
      digits: 0,
    },
    {
      what: "  … server processes started for the second session (its start and that call)",
      values: each(r, (c) => c.startedForSecondSession),
      digits: 0,
      target: ["0 (a warm call)", (v) => v === 0],
    },
    {
      what: `First call of sessions 2–${SESSIONS}, median ms`,
      values: each(r, (c) => median(c.firstCallMs.slice(1))),
      digits: 0,
    },
    {
      what: `Then a second server's first call, median of ${SESSIONS} sessions, ms`,
      values: each(r, (c) => median(c.secondServerMs)),
      digits: 0,
    },
  );
  if (r.daemon) {
    rows.push({
      what: `A call through the daemon, added over direct stdio (${r.daemon.pairs} pairs), median ms`,
      values: { shared: r.daemon.addedMedianUs / 1000 },
      digits: 3,
      target: ["≤ 0.2", (v) => v <= 0.2],
    });
  }
  return rows;
}

const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(", ");

export function formatShared(r: SharedResult): string {
  const table = formatResultsTable(
    {
      columns: SHARED_COLUMNS.map((id) => ({ id, label: LABELS[id] })),
      ratio: { of: "shared", to: "own", label: "ratio (on / off)" },
      target: { column: "shared", label: "target (on)" },
    },
    sharedRows(r),
  );
  const calls = SHARED_COLUMNS.filter((c) => r.columns[c]).map((c) => {
    const m = r.columns[c]!;
    const inner = m.innerFirstCallMs.length
      ? `; the \`mcp__s0__echo\` call inside the first script ${list(m.innerFirstCallMs)} ms`
      : "";
    return `- ${LABELS[c]}: first call of sessions 1–${SESSIONS} ${list(m.firstCallMs)} ms; a second server's first call ${list(m.secondServerMs)} ms${inner}`;
  });
  return [table, "", ...calls].join("\n");
}
