/**
 * Direct tools: (a) extension factory → every direct tool registered, for
 * 38 servers × 5 direct tools each, from a warm cache (target < 50 ms, no
 * child process); baseline, interleaved: the same factory with no direct
 * tools configured (proxy only). (b) What the model's first request
 * declares of ours (name + description + parameters, tokens = chars/4):
 * proxy only, then 5 and 50 direct tools beside it.
 */

import { median } from "../transport/transport-measure.js";
import { createShellHome, loadCatalogServers, startedServers } from "./shell-home.js";
import { definitionText, RecordingPi, tokens } from "./shell-recording-pi.js";
import { liveChildren, spawnCount } from "./shell-spawn-counter.js";

const ROUNDS = 20;
const PER_SERVER = 5;

type Factory = (pi: never) => Promise<void>;

export interface DirectToolsResult {
  servers: number;
  registered: number;
  oursMedianMs: number;
  oursP90Ms: number;
  proxyOnlyMedianMs: number;
  /** Tokens of what we declare, by number of direct tools (0 = the proxy alone). */
  surface: { direct: number; tokens: number }[];
  spawned: number;
}

export async function measureDirectTools(): Promise<DirectToolsResult> {
  const { createMcpAdapter } = await import("pi-mcp-adapter");
  const extension = createMcpAdapter() as Factory;
  const all = loadCatalogServers();
  const spawnedBefore = spawnCount();
  const childrenBefore = liveChildren().length;
  let started = 0;
  const firstTools = (n: number) => (s: { tools: { name: string }[] }) => ({
    directTools: s.tools.slice(0, n).map((t) => t.name),
  });

  // (a) the factory with 190 direct tools, against the same factory proxy-only.
  const direct = await createShellHome(all, firstTools(PER_SERVER));
  const ours: number[] = [];
  let registered = 0;
  let proxyOnly: number[] = [];
  try {
    const time = async () => {
      const pi = new RecordingPi();
      const start = performance.now();
      await extension(pi as never);
      const ms = performance.now() - start;
      registered = pi.tools.length;
      return ms;
    };
    await time();
    for (let r = 0; r < ROUNDS; r++) ours.push(await time());
    started += startedServers(direct);
  } finally {
    direct.close();
  }
  const plain = await createShellHome(all);
  try {
    proxyOnly = [];
    for (let r = 0; r < ROUNDS; r++) {
      const pi = new RecordingPi();
      const start = performance.now();
      await extension(pi as never);
      proxyOnly.push(performance.now() - start);
    }
    started += startedServers(plain);
  } finally {
    plain.close();
  }

  // (b) the declared surface: proxy only, one server × 5, ten servers × 5.
  const surface: DirectToolsResult["surface"] = [];
  for (const servers of [0, 1, 10]) {
    // Servers with at least five tools, so the rows are exactly 5 and 50 direct tools.
    const chosen = new Set(
      all
        .filter((s) => s.tools.length >= PER_SERVER)
        .slice(0, servers)
        .map((s) => s.name),
    );
    const home = await createShellHome(all, (s) => (chosen.has(s.name) ? firstTools(PER_SERVER)(s) : {}));
    try {
      const pi = new RecordingPi();
      await extension(pi as never);
      surface.push({
        direct: pi.tools.length - 1,
        tokens: tokens(pi.tools.map(definitionText).join("")),
      });
      started += startedServers(home);
    } finally {
      home.close();
    }
  }
  const sorted = [...ours].sort((a, b) => a - b);
  return {
    servers: all.length,
    registered,
    oursMedianMs: median(ours),
    oursP90Ms: sorted[Math.floor(sorted.length * 0.9)]!,
    proxyOnlyMedianMs: median(proxyOnly),
    surface,
    spawned: Math.max(spawnCount() - spawnedBefore, liveChildren().length - childrenBefore, started),
  };
}

export function formatDirectTools(r: DirectToolsResult): string {
  const proxy = r.surface[0]!.tokens;
  return [
    `Direct tools (${r.servers} servers, the first ${PER_SERVER} tools of each direct, warm cache, median of ${ROUNDS}):`,
    `   factory → ${r.registered - 1} direct tools + proxy registered: ${r.oursMedianMs.toFixed(2)} ms (p90 ${r.oursP90Ms.toFixed(2)} ms)`,
    `   baseline, same factory proxy-only: ${r.proxyOnlyMedianMs.toFixed(2)} ms (ratio ${(r.oursMedianMs / r.proxyOnlyMedianMs).toFixed(2)})`,
    `   target < 50 ms: ${r.oursMedianMs < 50 ? "met" : "MISSED"}; child processes started: ${r.spawned} (must be 0)`,
    "   first-request tokens of our tools (chars/4):",
    ...r.surface.map(
      (s) =>
        `   ${s.direct === 0 ? "proxy only" : `proxy + ${s.direct} direct`}: ${s.tokens.toLocaleString("en")}${s.direct ? ` (${(s.tokens / proxy).toFixed(1)}× proxy only)` : ""}`,
    ),
  ].join("\n");
}
