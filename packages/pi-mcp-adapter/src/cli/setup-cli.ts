/**
 * `init` and `setup`: adopt other hosts' configs, create a `.mcp.json`, add
 * known servers, copy servers from Pi's own `mcp.json`. Only the adapter's
 * own files (and a new `.mcp.json`) are written; nothing starts and no
 * `!command` runs.
 */
import { HOST_IDS, type HostId, isHostId } from "@pi-mcp-adapter/config";
import {
  addServers,
  adoptHostImports,
  CURATED_SERVERS,
  createProjectConfig,
  findCuratedServer,
  formatSetupOverview,
  initHostImports,
  readSetupOverview,
  type SetupCommands,
} from "@pi-mcp-adapter/config/setup";
import type { CliContext, CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";

const CLI_SETUP_COMMANDS: SetupCommands = {
  adopt: (host) => `pi-mcp-adapter setup --adopt ${host}`,
  add: (id) => `pi-mcp-adapter setup --add ${id}`,
  createMcpJson: "pi-mcp-adapter setup --create-mcp-json",
  copyPiServers: () => "pi-mcp-adapter setup --copy-pi-servers",
};

export async function initCli(ctx: CliContext): Promise<CliOutput> {
  const discovery = ctx.options.discoverHostConfigs;
  const result = await initHostImports({ cwd: ctx.options.cwd, discovery, environment: ctx.environment });
  const lines: string[] = [];
  if (result.hosts.length === 0) {
    lines.push(`No other hosts' MCP configs with servers found (looked for ${HOST_IDS.join(", ")}).`);
  } else {
    lines.push("Found host configs:");
    for (const h of result.hosts) lines.push(`  - ${h.host} (${h.file}): ${h.servers.join(", ")}`);
  }
  if (result.changed) {
    const parts = [];
    if (result.added.length) parts.push(`imports += ${result.added.join(", ")}`);
    if (result.discoveryEnabled) parts.push('settings.hostConfigDiscovery = "on"');
    lines.push(`Wrote ${result.file}: ${parts.join("; ")}.`);
    lines.push("Their servers load from the next start (run `pi-mcp-adapter status` to see them).");
  } else {
    lines.push(`Nothing to change: ${result.file} is already up to date.`);
  }
  return {
    text: lines.join("\n"),
    json: {
      file: result.file,
      changed: result.changed,
      added: result.added,
      discoveryEnabled: result.discoveryEnabled,
      hosts: result.hosts.map(({ host, file, scope, servers }) => ({ host, file, scope, servers })),
    },
  };
}

interface SetupAction {
  action: "adopt" | "add" | "create-mcp-json" | "copy-pi-servers";
  file: string;
  changed: boolean;
  /** Host names or server names that were written. */
  added: string[];
  /** Server names already defined in the file (left as they were). */
  kept: string[];
}

export async function setupCli(ctx: CliContext): Promise<CliOutput> {
  const { options } = ctx;
  const overview = await readSetupOverview({
    cwd: options.cwd,
    configPath: options.config,
    environment: ctx.environment,
  });
  const wantsAction =
    options.adopt.length > 0 || options.add.length > 0 || options.createMcpJson || options.copyPiServers;
  if (!wantsAction) {
    return { text: formatSetupOverview(overview, CLI_SETUP_COMMANDS), json: overview };
  }
  // Every name is checked before anything is written.
  const hosts = options.adopt.map((name) => {
    const host = name.toLowerCase();
    if (!isHostId(host))
      throw new CliError("cli_usage", `--adopt: unknown host "${name}" (one of ${HOST_IDS.join(", ")})`);
    return host;
  });
  const curated = options.add.map((id) => {
    const server = findCuratedServer(id);
    if (!server) {
      throw new CliError(
        "cli_usage",
        `--add: unknown server "${id}" (one of ${CURATED_SERVERS.map((s) => s.id).join(", ")})`,
      );
    }
    return server;
  });
  const actions: SetupAction[] = [];
  const notes: string[] = [];
  if (options.createMcpJson) {
    const created = await createProjectConfig(overview.projectConfigFile);
    actions.push({
      action: "create-mcp-json",
      file: created.file,
      changed: created.created,
      added: [],
      kept: [],
    });
  }
  if (hosts.length) {
    const adopted = await adoptHostImports(overview.agentConfigFile, hosts as HostId[]);
    actions.push({
      action: "adopt",
      file: adopted.file,
      changed: adopted.changed,
      added: adopted.added,
      kept: [],
    });
    for (const host of hosts) {
      if (!overview.hosts.some((h) => h.host === host))
        notes.push(
          `note: no ${host} config was found on this machine yet; the import applies once one exists.`,
        );
    }
  }
  if (curated.length) {
    const target = options.project ? overview.projectConfigFile : overview.agentConfigFile;
    const added = await addServers(target, Object.fromEntries(curated.map((s) => [s.id, s.entry])));
    actions.push({
      action: "add",
      file: added.file,
      changed: added.changed,
      added: added.added,
      kept: added.kept,
    });
    for (const server of curated)
      if (server.note && added.added.includes(server.id)) notes.push(`${server.id}: ${server.note}`);
  }
  if (options.copyPiServers) {
    if (overview.piNative.length === 0) notes.push("Pi's own mcp.json does not exist here; nothing to copy.");
    for (const native of overview.piNative) {
      const copied = await addServers(native.target, native.servers);
      actions.push({
        action: "copy-pi-servers",
        file: copied.file,
        changed: copied.changed,
        added: copied.added,
        kept: copied.kept,
      });
    }
  }
  const lines = actions.map(describeAction);
  lines.push(...notes);
  if (!actions.some((a) => a.changed)) lines.push("Nothing changed.");
  return { text: lines.join("\n"), json: { actions } };
}

function describeAction(a: SetupAction): string {
  const file = a.file;
  const kept = a.kept.length ? ` (kept the existing definition of ${a.kept.join(", ")})` : "";
  switch (a.action) {
    case "create-mcp-json":
      return a.changed
        ? `Created ${file} with an empty mcpServers.`
        : `${file} already exists; left as it is.`;
    case "adopt":
      return a.changed
        ? `Wrote ${file}: imports += ${a.added.join(", ")}.`
        : `${file} already imports those hosts.`;
    case "add":
    case "copy-pi-servers":
      return a.changed
        ? `Added ${a.added.join(", ")} to ${file}${kept}.`
        : `Nothing added to ${file}${kept}.`;
  }
}
