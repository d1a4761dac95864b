/**
 * The side-by-side table: one row per figure, this checkout next to the
 * reference and their ratio, with the design's measured target (and whether
 * our figure meets it) where the design sets one.
 */
import type { QualityScores } from "./metrics.js";
import type { CallRow } from "./side-by-side-call.js";
import type { InstallResult } from "./side-by-side-install.js";
import { REF_VERSION } from "./side-by-side-project.js";
import { RSS_SERVERS } from "./side-by-side-rss.js";
import type { SearchResult } from "./side-by-side-search.js";
import type { StartupResult } from "./side-by-side-startup.js";
import type { TokenRow } from "./side-by-side-tokens.js";

export interface SideBySide {
  servers: number;
  tokens?: TokenRow[];
  startup?: StartupResult;
  search?: SearchResult;
  /** Our in-process ranking (the search package), median ms over the same queries. */
  searchInProcessMs?: number;
  calls?: Partial<Record<"ours" | "ref", CallRow>>;
  rss?: Record<"ours" | "ref" | "none", number>;
  install?: { ours: InstallResult; ref: InstallResult };
}

interface Row {
  what: string;
  ours: number | undefined;
  ref: number | undefined;
  digits: number;
  /** Target text and check, for our figure. */
  target?: [string, (ours: number) => boolean];
}

const fmt = (v: number | undefined, digits: number) =>
  v === undefined || Number.isNaN(v)
    ? "—"
    : v.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function sideBySideRows(r: SideBySide): Row[] {
  const rows: Row[] = [];
  for (const t of r.tokens ?? []) {
    const proxyOnly38 = t.label.startsWith(`proxy only, ${r.servers} servers`);
    rows.push({
      what: `Always-on tokens, first request: ${t.label}`,
      ours: t.tokens.ours,
      ref: t.tokens.ref,
      digits: 0,
      // design.md: the always-on surface with 38 servers, server roster included.
      ...(proxyOnly38 ? { target: ["≤ 350", (v: number) => v <= 350] as Row["target"] } : {}),
    });
    if (proxyOnly38) {
      rows.push({
        what: "  … of which the `mcp` tool's definition (name + description + parameters, with the server roster)",
        ours: t.proxyDefinition.ours,
        ref: t.proxyDefinition.ref,
        digits: 0,
      });
    }
  }
  const s = r.startup;
  if (s) {
    for (const state of ["cold", "warm"] as const) {
      const alone = s.medianMs[state].none;
      rows.push({
        what: `Pi start-up → first model request, ${r.servers} lazy servers, ${state} cache, ms (Pi alone ${fmt(alone, 0)})`,
        ours: s.medianMs[state].ours,
        ref: s.medianMs[state].ref,
        digits: 0,
      });
      rows.push({
        what: `  … added over Pi alone, ${state} cache, ms`,
        ours: s.medianMs[state].ours - alone,
        ref: s.medianMs[state].ref - alone,
        digits: 0,
        ...(state === "cold" ? { target: ["≤ 100", (v: number) => v <= 100] as Row["target"] } : {}),
      });
    }
    for (const state of ["cold", "warm"] as const) {
      rows.push({
        what: `Child processes started before the first tool call, ${state} cache`,
        ours: s.spawned[state].ours,
        ref: s.spawned[state].ref,
        digits: 0,
        ...(state === "warm" ? { target: ["0", (v: number) => v === 0] as Row["target"] } : {}),
      });
    }
  }
  const q = r.search;
  if (q) {
    if (r.searchInProcessMs !== undefined) {
      rows.push({
        what: `Ranked search in process, ${q.tools} tools, median ms`,
        ours: r.searchInProcessMs,
        ref: undefined,
        digits: 3,
        target: ["< 1", (v) => v < 1],
      });
    }
    rows.push({
      what: `Search turn through Pi's \`mcp\` tool, ${q.tools} tools, median ms (built-in \`read\` turn ${fmt(q.turnMs.none, 1)})`,
      ours: q.turnMs.ours,
      ref: q.turnMs.ref,
      digits: 1,
    });
    rows.push({
      what: "  … the session's first search turn, ms",
      ours: q.firstTurnMs.ours,
      ref: q.firstTurnMs.ref,
      digits: 1,
    });
    for (const [metric, label] of [
      ["recallAt1", "Recall@1"],
      ["recallAt5", "Recall@5"],
      ["mrrAt10", "MRR@10"],
    ] as [keyof QualityScores, string][]) {
      rows.push({
        what: `Search quality, ${q.queries} eval queries: ${label}`,
        ours: q.quality.ours?.[metric],
        ref: q.quality.ref?.[metric],
        digits: 3,
      });
    }
  }
  const c = r.calls;
  if (c) {
    rows.push({
      what: "server-everything `echo` over stdio: bare SDK `callTool` in Pi, ms",
      ours: c.ours?.bareMs,
      ref: c.ref?.bareMs,
      digits: 2,
    });
    rows.push({
      what: "  … the same call proxied through `mcp`, ms",
      ours: c.ours?.proxiedMs,
      ref: c.ref?.proxiedMs,
      digits: 2,
    });
    rows.push({
      what: "  … proxied / bare",
      ours: c.ours?.ratio,
      ref: c.ref?.ratio,
      digits: 2,
      target: ["≤ 1.10", (v) => v <= 1.1],
    });
  }
  if (r.rss) {
    rows.push({
      what: `Pi's RSS with ${RSS_SERVERS} servers connected, MiB (Pi alone ${fmt(r.rss.none, 0)})`,
      ours: r.rss.ours,
      ref: r.rss.ref,
      digits: 0,
    });
  }
  if (r.install) {
    rows.push({
      what: "Production install (`npm install --omit=dev`), MB of node_modules",
      ours: r.install.ours.kib / 1024,
      ref: r.install.ref.kib / 1024,
      digits: 1,
      target: ["≤ 25", (v) => v <= 25],
    });
    rows.push({
      what: "  … packages installed",
      ours: r.install.ours.packages,
      ref: r.install.ref.packages,
      digits: 0,
    });
  }
  return rows;
}

/** The table as Markdown, plus the largest installed packages of each. */
export function formatSideBySide(r: SideBySide): string {
  const lines = [
    `| | this checkout | ${REF_VERSION} | ratio (ours / ${REF_VERSION}) | target (ours) |`,
    "|---|---:|---:|---:|---|",
  ];
  for (const row of sideBySideRows(r)) {
    const ratio =
      row.ours !== undefined && row.ref !== undefined && row.ref !== 0
        ? `${(row.ours / row.ref).toFixed(2)}×`
        : "—";
    const target =
      row.target && row.ours !== undefined
        ? `${row.target[0]}: ${row.target[1](row.ours) ? "met" : "**not met**"}`
        : "";
    lines.push(
      `| ${row.what} | ${fmt(row.ours, row.digits)} | ${fmt(row.ref, row.digits)} | ${ratio} | ${target} |`,
    );
  }
  if (r.install) {
    const top = (i: InstallResult) =>
      i.biggest
        .slice(0, 5)
        .map((p) => `${p.name} ${(p.kib / 1024).toFixed(1)}`)
        .join(", ");
    lines.push("", `- Largest packages, MB — this checkout: ${top(r.install.ours)}`);
    lines.push(`- Largest packages, MB — ${REF_VERSION}: ${top(r.install.ref)}`);
  }
  return lines.join("\n");
}
