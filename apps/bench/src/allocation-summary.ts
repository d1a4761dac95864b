/**
 * Where a process allocated: a sampled heap profile (`.heapprofile`, written
 * by `src/rss-rounds.ts --allocations DIR`, collected objects included),
 * summed by the origin of the allocating function (our packages, Pi and its
 * dependencies, Node) and by our functions — inclusive of what they call
 * down the stack, so a JSON.parse is charged to whoever called it.
 *
 *   node --import tsx src/allocation-summary.ts <file.heapprofile> [--top N]
 */
import { readFileSync } from "node:fs";
import { origin } from "./pi-call-profile-origin.js";

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

const file = process.argv[2];
if (!file) throw new Error("usage: allocation-summary <file.heapprofile> [--top N]");
const topAt = process.argv.indexOf("--top");
const top = topAt < 0 ? 30 : Number(process.argv[topAt + 1]);
const { head } = JSON.parse(readFileSync(file, "utf8")) as { head: Node };
const byOrigin = new Map<string, number>();
const ourFunctions = new Map<string, number>();
let total = 0;
const add = (map: Map<string, number>, key: string, bytes: number) =>
  map.set(key, (map.get(key) ?? 0) + bytes);

/** `ours` is the nearest frame of our packages above this node (what the allocation is charged to). */
function walk(node: Node, ours: string | undefined, firstOrigin: string | undefined): void {
  const { functionName, url, lineNumber } = node.callFrame;
  const here = url ? origin(url) : undefined;
  const mine = here?.startsWith("ours")
    ? `${functionName || "(anonymous)"} ${url.replace(/^.*\/packages\//, "")}:${lineNumber + 1}`
    : ours;
  // Charged to the first of our frames from the root, else the allocating frame's own origin.
  const charged = firstOrigin ?? (here?.startsWith("ours") ? here : undefined);
  if (node.selfSize) {
    total += node.selfSize;
    add(byOrigin, charged ?? here ?? "(V8 / native)", node.selfSize);
    if (mine) add(ourFunctions, mine, node.selfSize);
  }
  for (const child of node.children) walk(child, mine, charged);
}
walk(head, undefined, undefined);
const mib = (b: number) => (b / 1024 / 1024).toFixed(2).padStart(8);
console.log(`${mib(total)} MiB sampled in all`);
for (const [k, v] of [...byOrigin].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${mib(v)} MiB  ${k}`);
console.log("\nour nearest frame to each allocation:");
for (const [k, v] of [...ourFunctions].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${mib(v)} MiB  ${k}`);
