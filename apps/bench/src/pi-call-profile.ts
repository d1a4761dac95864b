/**
 * Reads a `.cpuprofile` that Pi wrote during the call benchmark
 * (`src/call-rounds.ts --cpu-prof DIR`) and says where the busy time went:
 * self time per origin — our packages, the bare SDK client of the probe
 * extension, Pi and its dependencies, Node — and our functions with the most
 * self time. Samples before the first tool execution (start-up) are left out.
 *
 *   node --import tsx src/pi-call-profile.ts <file.cpuprofile> [--top N]
 */
import { readFileSync } from "node:fs";
import { origin } from "./pi-call-profile-origin.js";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error("usage: pi-call-profile <file.cpuprofile> [--top N]");
const topAt = process.argv.indexOf("--top");
const top = topAt < 0 ? 25 : Number(process.argv[topAt + 1]);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// The calls phase starts at the first sample inside the probe extension (it times every execution).
let started = false;
const byOrigin = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  if (!started && url.includes("/apps/bench/fixtures/")) started = true;
  if (!started || functionName === "(idle)" || functionName === "(program)") return;
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  const where = functionName === "(garbage collector)" ? "(garbage collector)" : origin(url);
  byOrigin.set(where, (byOrigin.get(where) ?? 0) + delta);
  if (where.startsWith("ours")) {
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/packages\//, "")}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + delta);
  }
});
const row = (us: number, label: string) =>
  `${(us / 1000).toFixed(1).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${label}`;
console.log(`busy after the first tool execution: ${(total / 1000).toFixed(1)} ms`);
for (const [label, us] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(row(us, label));
console.log("\nour functions, self time:");
for (const [label, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(row(us, label));
