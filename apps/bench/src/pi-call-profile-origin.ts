/** Which part of a Pi process a profiled function belongs to, from its script URL (for the profile readers). */
export function origin(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node";
  const ours = /\/packages\/([^/]+)\/dist\//.exec(url);
  if (ours) return `ours: ${ours[1]}`;
  if (url.includes("/apps/bench/fixtures/")) return "probe extension";
  if (url.includes("/node_modules/@modelcontextprotocol/sdk/")) return "bare SDK client";
  const dep = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g;
  let last: string | undefined;
  for (let m = dep.exec(url); m; m = dep.exec(url)) last = m[1];
  return last ? `pi: ${last}` : url;
}
