/**
 * What a V8 heap snapshot holds, grouped by node type and name (constructor,
 * string, code), and — given two snapshots — what the second holds more of:
 *
 *   node --import tsx src/heap-summary.ts <a.heapsnapshot> [<b.heapsnapshot>] [--top N]
 *
 * Used to find what the adapter (and each connection) keeps in Pi's heap:
 * `src/rss-rounds.ts --snapshot` writes the snapshots.
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Groups = Map<string, { size: number; count: number }>;

function groups(file: string): { groups: Groups; total: number } {
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const out: Groups = new Map();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]!]!;
    let name = s.strings[s.nodes[i + nameAt]!] ?? "";
    // Strings are grouped by length bucket, not text; other nodes by their constructor or name.
    if (type === "string" || type === "concatenated string" || type === "sliced string") name = "";
    else if (name.length > 60) name = `${name.slice(0, 57)}…`;
    const key = `${type} ${name}`;
    const size = s.nodes[i + sizeAt]!;
    total += size;
    const g = out.get(key) ?? { size: 0, count: 0 };
    g.size += size;
    g.count++;
    out.set(key, g);
  }
  return { groups: out, total };
}

const files = process.argv.slice(2).filter((a) => !a.startsWith("--") && !/^\d+$/.test(a));
const topAt = process.argv.indexOf("--top");
const top = topAt < 0 ? 40 : Number(process.argv[topAt + 1]);
const mib = (b: number) => (b / 1024 / 1024).toFixed(2);
const a = groups(files[0]!);
if (files.length === 1) {
  console.log(`total ${mib(a.total)} MiB`);
  for (const [key, g] of [...a.groups].sort((x, y) => y[1].size - x[1].size).slice(0, top))
    console.log(`${mib(g.size).padStart(8)} MiB ${String(g.count).padStart(8)}  ${key}`);
} else {
  const b = groups(files[1]!);
  console.log(`total ${mib(a.total)} → ${mib(b.total)} MiB (+${mib(b.total - a.total)})`);
  const keys = new Set([...a.groups.keys(), ...b.groups.keys()]);
  const diff = [...keys].map((k) => {
    const x = a.groups.get(k) ?? { size: 0, count: 0 };
    const y = b.groups.get(k) ?? { size: 0, count: 0 };
    return { k, size: y.size - x.size, count: y.count - x.count };
  });
  for (const d of diff.sort((x, y) => y.size - x.size).slice(0, top))
    console.log(`${mib(d.size).padStart(8)} MiB ${String(d.count).padStart(8)}  ${d.k}`);
}
