/**
 * Memory saved by npx resolution: resident memory of the whole process group
 * of one server started through `npx` against the same server started from
 * its resolved bin, both in this run. Needs the package in npm's `_npx` cache;
 * the first run puts it there (one `npx` download from the npm registry).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { connectServer, createNpxResolver } from "@pi-mcp-adapter/transport";
import { groupRssKiB } from "./transport-measure.js";

const PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31";

export interface NpxRssResult {
  viaNpxKiB: number;
  directKiB: number;
  savedKiB: number;
  viaNpxProcesses: string[];
  directProcesses: string[];
}

async function groupRssAfterConnect(resolve: boolean) {
  // A folder outside the repo, so npx cannot find the package in a local node_modules.
  const cwd = mkdtempSync(path.join(tmpdir(), "npx-bench-"));
  const connection = await connectServer(
    ServerDefinitionSchema.parse({
      name: "everything",
      transport: "stdio",
      command: "npx",
      args: ["-y", PACKAGE],
      cwd,
      requestTimeoutMs: 120_000,
      source: { file: "bench", key: "everything" },
    }),
    { resolveCommand: resolve ? createNpxResolver() : null },
  );
  await connection.listTools();
  await new Promise((r) => setTimeout(r, 500)); // let startup garbage settle
  const rss = groupRssKiB(connection.pid!);
  await connection.close();
  return rss;
}

export async function measureNpxRss(): Promise<NpxRssResult | string> {
  if (process.platform !== "linux") return "skipped: reads /proc";
  const resolved = await createNpxResolver()("npx", ["-y", PACKAGE]);
  if (resolved.command === "npx") {
    await groupRssAfterConnect(false); // fills npm's _npx cache
    const again = await createNpxResolver()("npx", ["-y", PACKAGE]);
    if (again.command === "npx") return `skipped: ${PACKAGE} is not in npm's _npx cache`;
  }
  const viaNpx = await groupRssAfterConnect(false);
  const direct = await groupRssAfterConnect(true);
  return {
    viaNpxKiB: viaNpx.kib,
    directKiB: direct.kib,
    savedKiB: viaNpx.kib - direct.kib,
    viaNpxProcesses: viaNpx.processes,
    directProcesses: direct.processes,
  };
}

export function formatNpxRss(r: NpxRssResult | string): string {
  if (typeof r === "string") return `npx resolution RSS: ${r}`;
  const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
  return [
    `npx resolution RSS (${PACKAGE}, whole process group):`,
    `  via npx: ${mib(r.viaNpxKiB)} [${r.viaNpxProcesses.join(", ")}]`,
    `  resolved bin: ${mib(r.directKiB)} [${r.directProcesses.join(", ")}]`,
    `  saved per server: ${mib(r.savedKiB)} (${((r.savedKiB / r.viaNpxKiB) * 100).toFixed(0)} %)`,
  ].join("\n");
}
