/**
 * Shared servers, measured: `SESSIONS` sessions (separate Node processes,
 * each a runtime as Pi's extension builds it) × `SERVERS` stdio
 * server-everything definitions, once with every session starting its own
 * processes and once with `shareServers: true` (one process per definition in
 * the per-user daemon). Counted and summed over the server processes alone
 * (found by a marker in their environment): processes, RSS and PSS (PSS
 * splits shared pages between the processes that map them, so it adds up to
 * what the servers really cost). Each session's environment differs as a
 * terminal's does (TERM_SESSION_ID, TMUX_PANE, SHLVL, PWD, …). Target: 10
 * processes instead of 50, total server memory ÷ 5. Each session times its
 * first call (one server, before the others): in the second session it
 * should be a warm call when shared (the daemon holds the process), a
 * server start when not.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stopDaemon } from "@pi-mcp-adapter/daemon";
import { terminalEnv } from "@pi-mcp-adapter/test-kit";

export const SESSIONS = 5;
export const SERVERS = 10;
const session = fileURLToPath(new URL("./shared-servers-session.ts", import.meta.url));

export interface ServerMemory {
  processes: number;
  rssMiB: number;
  pssMiB: number;
  /** Each session's first call, ms, in the order the sessions started. */
  firstCallMs: number[];
  /** Each session's first call to a second server, right after (its client code loaded), ms. */
  secondServerMs: number[];
}

export interface SharedServersResult {
  own: ServerMemory;
  shared: ServerMemory;
}

/** Server processes whose environment holds `mark`, with their RSS and PSS. */
async function serverMemory(mark: string): Promise<ServerMemory> {
  const total: ServerMemory = { processes: 0, rssMiB: 0, pssMiB: 0, firstCallMs: [], secondServerMs: [] };
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, "utf8");
      if (!environ.split("\0").includes(`BENCH_MARK=${mark}`) || !environ.includes("BENCH_SERVER=")) continue;
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      const rollup = await readFile(`/proc/${entry}/smaps_rollup`, "utf8");
      total.processes++;
      total.rssMiB += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      total.pssMiB += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
    } catch {
      // not ours, or gone meanwhile
    }
  }
  return total;
}

function startSession(env: NodeJS.ProcessEnv): { child: ChildProcess; ready: Promise<[number, number]> } {
  const child = spawn(process.execPath, ["--import", "tsx", session], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const ready = new Promise<[number, number]>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      const ready = /^ready ([\d.]+) ([\d.]+|NaN)$/m.exec(output);
      if (ready) resolve([Number(ready[1]), Number(ready[2])]);
    });
    child.stderr?.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`a bench session exited (${code}) before it was ready:\n${output}`)),
    );
  });
  return { child, ready };
}

async function run(share: boolean): Promise<ServerMemory> {
  const agentDir = await mkdtemp(path.join(tmpdir(), "bench-shared-"));
  const mark = path.basename(agentDir);
  const env = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    BENCH_MARK: mark,
    BENCH_SERVERS: String(SERVERS),
    BENCH_SHARE: share ? "1" : "0",
  };
  const sessions: ChildProcess[] = [];
  const firstCallMs: number[] = [];
  const secondServerMs: number[] = [];
  try {
    // One after another, as sessions open in a day's work (and so a loaded machine starts them at all).
    for (let i = 0; i < SESSIONS; i++) {
      const started = startSession({ ...env, ...terminalEnv(i, process.cwd(), tmpdir()) });
      sessions.push(started.child);
      const [firstCall, secondServer] = await started.ready;
      firstCallMs.push(firstCall);
      secondServerMs.push(secondServer);
    }
    return { ...(await serverMemory(mark)), firstCallMs, secondServerMs };
  } finally {
    await Promise.all(
      sessions.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.stdin?.end();
          }),
      ),
    );
    await stopDaemon(agentDir).catch(() => false);
    await rm(agentDir, { recursive: true, force: true });
  }
}

export async function measureSharedServers(): Promise<SharedServersResult> {
  const own = await run(false);
  const shared = await run(true);
  return { own, shared };
}

const calls = (list: number[]) => list.map((ms) => ms.toFixed(1)).join(", ");

export function formatSharedServers({ own, shared }: SharedServersResult): string {
  const row = (label: string, m: ServerMemory) =>
    `  ${label.padEnd(16)}${String(m.processes).padStart(9)}${m.rssMiB.toFixed(0).padStart(12)}${m.pssMiB.toFixed(0).padStart(12)}`;
  return [
    `Shared servers: ${SESSIONS} sessions × ${SERVERS} stdio servers (server-everything), server processes only:`,
    `  ${"".padEnd(16)}${"processes".padStart(9)}${"RSS MiB".padStart(12)}${"PSS MiB".padStart(12)}`,
    row("own processes", own),
    row("shareServers", shared),
    `  processes ${own.processes} → ${shared.processes} (target ${SERVERS}); PSS ÷ ${(own.pssMiB / Math.max(shared.pssMiB, 1)).toFixed(1)}, RSS ÷ ${(own.rssMiB / Math.max(shared.rssMiB, 1)).toFixed(1)} (target ÷ ${SESSIONS})`,
    `  first call of each session, ms — own processes: ${calls(own.firstCallMs)}; shareServers: ${calls(shared.firstCallMs)}`,
    `  then a second server's first call, ms — own processes: ${calls(own.secondServerMs)}; shareServers: ${calls(shared.secondServerMs)}`,
    `  the second session's first call: ${own.firstCallMs[1]?.toFixed(1)} → ${shared.firstCallMs[1]?.toFixed(1)} ms (shared: a warm call, no server start)`,
  ].join("\n");
}
