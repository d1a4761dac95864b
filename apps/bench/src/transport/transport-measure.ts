/** Small measuring helpers for the transport benchmarks. */
import { readdirSync, readFileSync } from "node:fs";

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

/** Total resident memory (KiB) of every live process in the process group `pgid` (Linux). */
export function groupRssKiB(pgid: number): { kib: number; processes: string[] } {
  let kib = 0;
  const processes: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || fields[0] === "Z") continue;
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      kib += rss;
      processes.push(
        `${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))} ${Math.round(rss / 1024)} MiB`,
      );
    } catch {
      // exited while we looked
    }
  }
  return { kib, processes };
}
