/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per
 * function and per script, largest first, idle and program time left out of
 * the busy total. For reading where a start-up or a first search goes.
 *
 * `--window A B` keeps the samples between two of the phase marks written
 * beside the profile by `startup-phases.ts` (`<name>.marks.json`: start,
 * imported, factory done, session_start done, idle, search done …).
 *
 * Run: `node --import tsx src/cpu-profile-summary.ts <file.cpuprofile> [top] [--window A B]`.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** µs; absent where a profile was built by hand. */
  startTime?: number;
}

export interface ProfileSummary {
  busyMs: number;
  byFunction: [string, number][];
  byScript: [string, number][];
}

const IDLE = new Set(["(idle)", "(program)"]);

/** Self time per function and per script of `profile`, in ms. */
export function summariseProfile(
  profile: Profile,
  top = 25,
  window: [number, number] = [0, Infinity],
): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const fn = new Map<string, number>();
  const script = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime ?? 0;
  profile.samples.forEach((id, i) => {
    const node = nodes.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    at += profile.timeDeltas[i] ?? 0;
    if (at < window[0] || at > window[1]) return;
    if (!node || IDLE.has(node.callFrame.functionName)) return;
    busy += ms;
    const file = node.callFrame.url ? shortUrl(node.callFrame.url) : "(native)";
    const key = `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + ms);
    script.set(file, (script.get(file) ?? 0) + ms);
  });
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { busyMs: busy, byFunction: sorted(fn), byScript: sorted(script) };
}

/** `…/packages/runtime/dist/index.js` → `runtime/index.js`; node internals keep their `node:` name. */
function shortUrl(url: string): string {
  const pkg = /packages\/([^/]+)\/dist\/(.+)$/.exec(url);
  if (pkg) return `${pkg[1]}/${pkg[2]}`;
  return url.startsWith("node:") ? url : basename(url);
}

export function formatProfileSummary(s: ProfileSummary): string {
  const rows = (list: [string, number][]) => list.map(([k, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
  return [
    `busy ${s.busyMs.toFixed(1)} ms; self time by script:`,
    ...rows(s.byScript),
    "by function:",
    ...rows(s.byFunction),
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, top, flag, a, b] = process.argv.slice(2);
  const profile = JSON.parse(readFileSync(file!, "utf8")) as Profile;
  let window: [number, number] = [0, Infinity];
  if (flag === "--window") {
    const marks = JSON.parse(readFileSync(file!.replace(/\.cpuprofile$/, ".marks.json"), "utf8")) as number[];
    window = [marks[Number(a)]!, marks[Number(b)]!];
  }
  console.log(formatProfileSummary(summariseProfile(profile, Number(top ?? 25), window)));
}
