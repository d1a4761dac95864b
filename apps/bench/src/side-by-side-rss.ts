/**
 * Pi's resident memory (its own process, not the servers) once 10 servers
 * are connected: the first 10 catalog servers with `lifecycle: "eager"`, Pi
 * in RPC mode (it stays up with no prompt). Read from /proc after Pi answers
 * `get_state`, every server has started, and a settling pause; Pi alone read
 * the same way.
 */
import { readFileSync } from "node:fs";
import { rpcMessages } from "@pi-mcp-adapter/e2e/rpc-messages";
import type { CatalogServer } from "./shell-home.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { catalogEntries } from "./side-by-side-project.js";

export const RSS_SERVERS = 10;
const SETTLE_MS = 2_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export async function measureRss(
  projects: BenchProject[],
  servers: CatalogServer[],
): Promise<Record<AdapterId, number>> {
  const result = {} as Record<AdapterId, number>;
  const chosen = servers.slice(0, RSS_SERVERS);
  for (const p of projects) {
    p.configure(catalogEntries(chosen, p.project.pidDir, () => ({ lifecycle: "eager" })));
    p.clearPids();
    const child = p.project.rpc({ extension: p.adapter.extension });
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
      result[p.adapter.id] = rssMiB(child.pid!);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill();
        await exited;
      }
      await drained.catch(() => {});
    }
  }
  return result;
}
