/** Setup's overview as plain text: the non-interactive `/mcp-adapter setup` and `pi-mcp-adapter setup --list`. */
import { formatProblem } from "../problems.js";
import { CURATED_SERVERS } from "./curated-servers.js";
import type { ConfigPathInfo, SetupOverview } from "./setup-overview.js";

/** `how` names the commands that act on each part (they differ between Pi and the CLI). */
export interface SetupCommands {
  adopt: (host: string) => string;
  add: (id: string) => string;
  createMcpJson: string;
  copyPiServers: (file: string) => string;
}

export function formatSetupOverview(overview: SetupOverview, how: SetupCommands): string {
  const lines: string[] = [];
  lines.push("Other hosts' MCP configs:");
  if (overview.hosts.length === 0) lines.push("  none found");
  for (const host of overview.hosts) {
    const servers = host.servers.length ? host.servers.join(", ") : "no servers";
    const state = host.active ? "imported" : `not loaded; adopt: ${how.adopt(host.host)}`;
    lines.push(`  - ${host.host} (${host.file}): ${servers} — ${state}`);
  }
  lines.push(
    `Project .mcp.json: ${overview.projectConfigExists ? `${overview.projectConfigFile} exists` : `none; create: ${how.createMcpJson}`}`,
  );
  lines.push("Known servers (ready entries):");
  for (const server of CURATED_SERVERS) {
    lines.push(`  - ${server.id}: ${server.title}, ${server.summary} — add: ${how.add(server.id)}`);
  }
  if (overview.piNative.length) {
    lines.push("Pi's own mcp.json (never read for connections):");
    for (const native of overview.piNative) {
      const names = Object.keys(native.servers);
      lines.push(
        `  - ${native.file}: ${names.length ? names.join(", ") : "no servers"}${names.length ? ` — copy into ${native.target}: ${how.copyPiServers(native.file)}` : ""}`,
      );
    }
  }
  lines.push(formatConfigPaths(overview.paths));
  for (const problem of overview.problems) lines.push(`${problem.severity}: ${formatProblem(problem)}`);
  return lines.join("\n");
}

/** Every config path, lowest precedence first, `[x]` where the file exists (host files only when present). */
export function formatConfigPaths(paths: readonly ConfigPathInfo[]): string {
  const lines = ["Config files, lowest precedence first:"];
  for (const entry of paths) {
    if (entry.kind === "import" && !entry.exists) continue;
    lines.push(`  ${entry.exists ? "[x]" : "[ ]"} ${entry.file} — ${entry.role}`);
  }
  return lines.join("\n");
}
