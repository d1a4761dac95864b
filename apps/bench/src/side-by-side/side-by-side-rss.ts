/**
 * Pi's resident memory (its own process, not the servers) once 10 servers
 * are connected: the first 10 catalog servers with `lifecycle: "eager"`, Pi
 * in RPC mode (it stays up with no prompt). Read from /proc after Pi answers
 * `get_state`, every server has started, and a settling pause; Pi alone read
 * the same way. The side-by-side row is the median of `RSS_ROUNDS` interleaved
 * rounds.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { rpcMessages } from "@pi-mcp-adapter/e2e/rpc-messages";
import type { CatalogServer } from "../shell/shell-home.js";
import { median } from "../transport/transport-measure.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { catalogEntries } from "./side-by-side-project.js";

export const RSS_SERVERS = 10;
/** Rounds of the side-by-side RSS row: each column's figure is the median of its readings. */
export const RSS_ROUNDS = 5;
const SETTLE_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What /proc says of a process's memory, MiB. */
export interface ProcMemory {
  rss: number;
  /** Anonymous pages (heaps, V8's included): what code or data an adapter keeps adds here. */
  anon: number;
  /** File-backed pages (mapped code and data files). */
  file: number;
}

function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kib("VmRSS"), anon: kib("RssAnon"), file: kib("RssFile") };
}

/** What the memory probe (`fixtures/memory-probe.mjs`) read inside Pi. */
export interface ProbeReading {
  usage: NodeJS.MemoryUsage;
  /** V8's heap spaces: committed size and used bytes. */
  spaces: Record<string, { size: number; used: number }>;
  /** The heap snapshot written after the reading (with `heapSnapshot`). */
  snapshot?: string;
}

export interface RssRunOptions {
  /** Servers configured `lifecycle: "eager"` (default none). */
  servers?: CatalogServer[];
  /**
   * Preload the memory probe and read it after /proc; `heapSnapshot` also
   * writes a V8 heap snapshot, `allocations` a sampled profile of every
   * allocation since start-up (collected ones too) to that file.
   */
  probe?: { heapSnapshot?: boolean; allocations?: string };
}

const probePath = fileURLToPath(new URL("../../fixtures/memory-probe.mjs", import.meta.url));

/** One Pi in RPC mode with `servers` eager: its memory once they all started and a settling pause passed. */
export async function measureRssOnce(
  p: BenchProject,
  options: RssRunOptions = {},
): Promise<ProcMemory & { probe?: ProbeReading }> {
  const chosen = options.servers ?? [];
  p.configure(catalogEntries(chosen, p.project.pidDir, () => ({ lifecycle: "eager" })));
  p.clearPids();
  const probeFile = p.project.join(`memory-probe-${Date.now()}.jsonl`);
  const env = options.probe
    ? {
        NODE_OPTIONS: `--import=${pathToFileURL(probePath).href}`,
        BENCH_MEMORY_FILE: probeFile,
        BENCH_HEAP_SNAPSHOT: options.probe.heapSnapshot ? "1" : "0",
        ...(options.probe.allocations ? { BENCH_ALLOC_PROFILE: options.probe.allocations } : {}),
      }
    : undefined;
  const child = p.project.rpc({ extension: p.adapter.extension, env });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  // Drain stdout to its end (leaving the loop early would close it under Pi), noting Pi's answer.
  let answered: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const drained = (async () => {
    for await (const message of rpcMessages(child.stdout)) if (message.id === "ready") answered();
  })();
  try {
    child.stdin.write(`${JSON.stringify({ id: "ready", type: "get_state" })}\n`);
    await Promise.race([
      ready,
      drained.then(() => {
        throw new Error(`${p.adapter.label}: Pi ended before answering get_state:\n${stderr.slice(-2000)}`);
      }),
    ]);
    const want = p.adapter.configFile ? chosen.length : 0;
    const deadline = Date.now() + 60_000;
    while (p.startedServers() < want) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(
          `${p.adapter.label}: ${p.startedServers()} of ${want} eager servers started:\n${stderr.slice(-2000)}`,
        );
      }
      await sleep(50);
    }
    await sleep(SETTLE_MS);
    if (child.exitCode !== null) throw new Error(`${p.adapter.label}: Pi exited:\n${stderr.slice(-2000)}`);
    const memory = procMemory(child.pid!);
    if (!options.probe) return memory;
    const wait = { snapshot: options.probe.heapSnapshot === true, allocations: !!options.probe.allocations };
    return { ...memory, probe: await readProbe(child.pid!, probeFile, wait) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill();
      await exited;
    }
    await drained.catch(() => {});
  }
}

/** Signals the probe in Pi and waits for its reading (and snapshot, when asked). */
async function readProbe(
  pid: number,
  file: string,
  wait: { snapshot: boolean; allocations: boolean },
): Promise<ProbeReading> {
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 120_000;
  for (;;) {
    const lines = existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { pid: number; allocations?: string } & Partial<ProbeReading>)
          .filter((l) => l.pid === pid)
      : [];
    const reading = lines.find((l) => l.usage);
    const written = lines.find((l) => l.snapshot);
    const allocated = lines.some((l) => l.allocations);
    if (reading && (!wait.snapshot || written) && (!wait.allocations || allocated)) {
      return { usage: reading.usage!, spaces: reading.spaces!, snapshot: written?.snapshot };
    }
    if (Date.now() > deadline) throw new Error(`no memory probe reading from pid ${pid} within 120 s`);
    await sleep(100);
  }
}

export async function measureRss(
  projects: BenchProject[],
  servers: CatalogServer[],
  rounds = RSS_ROUNDS,
): Promise<Record<AdapterId, number>> {
  const chosen = servers.slice(0, RSS_SERVERS);
  const readings = new Map<AdapterId, number[]>(projects.map((p) => [p.adapter.id, []]));
  // Interleaved rounds, the order rotating: one reading depends on when Pi's garbage collector last ran.
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < projects.length; k++) {
      const p = projects[(r + k) % projects.length]!;
      readings.get(p.adapter.id)!.push((await measureRssOnce(p, { servers: chosen })).rss);
    }
  }
  return Object.fromEntries([...readings].map(([id, values]) => [id, median(values)])) as Record<
    AdapterId,
    number
  >;
}
