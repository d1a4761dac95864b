/**
 * Exposed names for every entry of one server, none lost: folding (`get-sum`,
 * `get.sum`, `get sum` all become `get_sum`) can map several MCP names to one
 * exposed name. The entry whose own name is already in folded form keeps it;
 * the others get `_2`, `_3`, … in the order of their MCP names, so the result
 * does not depend on the order the server listed them in. The MCP name itself
 * is what a call sends on the wire; only the exposed name changes.
 */
import type { ToolPrefixMode } from "./server-definition.js";
import { foldName, limitToolNameLength, prefixedToolName } from "./tool-naming.js";

/**
 * The exposed name of each of `names` (one server's entries, same order).
 * Equal names get distinct exposed names too (the earlier entry wins), so a
 * tool and a prompt of one name stay apart.
 */
export function uniqueToolNames(
  server: string,
  names: readonly string[],
  mode: ToolPrefixMode = "server",
): string[] {
  const plain = names.map((name) => prefixedToolName(server, name, mode));
  const groups = new Map<string, number[]>();
  plain.forEach((exposed, index) => {
    const group = groups.get(exposed);
    if (group) group.push(index);
    else groups.set(exposed, [index]);
  });
  const out = [...plain];
  const taken = new Set(plain);
  for (const [exposed, members] of groups) {
    if (members.length === 1) continue;
    const ordered = [...members].sort((a, b) => compareClaims(names[a]!, names[b]!) || a - b);
    let next = 2;
    for (const index of ordered.slice(1)) {
      let candidate: string;
      do candidate = limitToolNameLength(`${exposed}_${next++}`);
      while (taken.has(candidate));
      taken.add(candidate);
      out[index] = candidate;
    }
  }
  return out;
}

/** A name already in folded form comes first; then by code units, so any listing order gives one answer. */
function compareClaims(a: string, b: string): number {
  const exactA = foldName(a) === a;
  const exactB = foldName(b) === b;
  if (exactA !== exactB) return exactA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
