/**
 * Exposed names for every entry of one server, none lost: folding (`get-sum`,
 * `get.sum`, `get sum` all become `get_sum`) can map several MCP names to one
 * exposed name. The entry whose own name is already in folded form keeps it;
 * the others get `_2`, `_3`, … in the order of their MCP names, so the result
 * does not depend on the order the server listed them in. The MCP name itself
 * is what a call sends on the wire; only the exposed name changes.
 *
 * A tool that already carries the server's name keeps it un-doubled
 * (`github_search` on server `github`, see `prefixedToolName`), unless that
 * name is taken: by another entry of the server (its `search` is
 * `github_search`) or possibly by another configured server (a server
 * `github_x` names its `y` `github_x_y`). Then it takes the doubled form,
 * `github_github_search`. Both tests depend on the server's own entries and
 * the configured server names, never on the order of a listing or on other
 * servers' tools, so a name stays put while unrelated tools come and go.
 */
import type { ToolPrefixMode } from "./server-definition.js";
import { carriesPrefix, foldName, limitToolNameLength, nameFromParts, serverPrefix } from "./tool-naming.js";

/**
 * The exposed name of each of `names` (one server's entries, same order).
 * Equal names get distinct exposed names too (the earlier entry wins), so a
 * tool and a prompt of one name stay apart.
 */
export function uniqueToolNames(
  server: string,
  names: readonly string[],
  mode: ToolPrefixMode = "server",
  /** The other configured servers' names, whose prefixes an un-doubled name must not borrow. */
  otherServers: readonly string[] = [],
): string[] {
  const plain = undoubledWhereFree(server, names, mode, otherServers);
  const taken = new Set(plain);
  // The common case: no two entries share an exposed name.
  if (taken.size === plain.length) return plain;
  const groups = new Map<string, number[]>();
  plain.forEach((exposed, index) => {
    const group = groups.get(exposed);
    if (group) group.push(index);
    else groups.set(exposed, [index]);
  });
  const out = [...plain];
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

/** Each entry's exposed name before `_2` suffixes: un-doubled where that name is free. */
function undoubledWhereFree(
  server: string,
  names: readonly string[],
  mode: ToolPrefixMode,
  otherServers: readonly string[],
): string[] {
  // `prefixedToolName` of each, the prefix made and each name folded once (a thousand tools at a first search).
  const own = mode === "none" ? "" : serverPrefix(server, mode);
  const parts = names.map(foldName);
  const named = parts.map((part) => nameFromParts(own, part, mode));
  // The doubled form differs only where a name carries the server's prefix.
  const doubled = parts.map((part, i) =>
    mode !== "none" && mode !== "mcp" && carriesPrefix(part, own)
      ? nameFromParts(own, part, mode, true)
      : named[i]!,
  );
  if (named.every((name, i) => name === doubled[i])) return named;
  const borrowed = otherServers
    .filter((other) => other !== server)
    .flatMap((other) => [serverPrefix(other, "server"), serverPrefix(other, "short")])
    .filter((prefix) => prefix !== own)
    .map((prefix) => `${prefix}_`);
  const count = new Map<string, number>();
  for (const name of named) count.set(name, (count.get(name) ?? 0) + 1);
  return named.map((name, i) => {
    if (name === doubled[i]) return name;
    const taken = count.get(name)! > 1 || borrowed.some((prefix) => name.startsWith(prefix));
    return taken ? doubled[i]! : name;
  });
}

/** A name already in folded form comes first; then by code units, so any listing order gives one answer. */
function compareClaims(a: string, b: string): number {
  const exactA = foldName(a) === a;
  const exactB = foldName(b) === b;
  if (exactA !== exactB) return exactA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
