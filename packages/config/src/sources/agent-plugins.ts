/**
 * Agent Plugins 1.0 packages listed in `settings.agentPluginPaths`: each
 * directory's `plugin.json` must be valid; its root `mcp.json` contributes
 * servers named `<plugin>__<server>`. `${PLUGIN_ROOT}` and `${PLUGIN_DATA}`
 * expand only in `args`, `env` and `cwd` of stdio servers, and both are set
 * in the child's environment. A bad plugin or entry is skipped with a problem.
 */
import path from "node:path";
import { expandHome } from "../files/config-sources.js";
import { readJsonFile } from "../files/read-json-file.js";
import { type ConfigLayer, emptyLayer, isPlainObject } from "../layers/config-layer.js";
import { loadLayerCheck } from "../layers/layer-check-loader.js";
import { parseServerEntry } from "../layers/server-entry.js";
import type { SourceScope } from "../layers/source-scope.js";

const PLUGIN_TYPES: Record<string, string> = {
  stdio: "stdio",
  "streamable-http": "http",
  http: "http",
  sse: "sse",
};

export interface PluginContext {
  cwd: string;
  home: string;
  agentDir: string;
  /** Scope of the file that listed the plugin paths. */
  scope: SourceScope;
}

/** One layer per plugin directory, in the order listed. */
export async function readAgentPlugins(
  dirs: readonly string[],
  context: PluginContext,
): Promise<ConfigLayer[]> {
  const layers: ConfigLayer[] = [];
  for (const dir of dirs) {
    const root = path.resolve(context.cwd, expandHome(dir, context.home));
    const manifestFile = path.join(root, "plugin.json");
    const layer = emptyLayer(manifestFile, context.scope === "project" ? "project" : "plugin");
    layers.push(layer);
    const manifestRead = await readJsonFile(manifestFile);
    if (manifestRead.kind === "missing") {
      layer.problems.push({
        severity: "error",
        file: manifestFile,
        message: "plugin directory has no plugin.json; plugin skipped",
      });
      continue;
    }
    if (manifestRead.kind === "error") {
      layer.problems.push({
        ...manifestRead.problem,
        message: `${manifestRead.problem.message}; plugin skipped`,
      });
      continue;
    }
    // Its schema loads zod: only when a plugin is listed, never for a start-up without plugins.
    const { PluginManifestSchema } = await import("./plugin-manifest-schema.js");
    const manifest = PluginManifestSchema.safeParse(manifestRead.value);
    if (!manifest.success) {
      for (const issue of manifest.error.issues) {
        layer.problems.push({
          severity: "error",
          file: manifestFile,
          field: issue.path.map(String).join(".") || undefined,
          message: `${issue.message}; plugin skipped`,
        });
      }
      continue;
    }
    const plugin = manifest.data.name;
    const mcpFile = path.join(root, "mcp.json");
    const mcpRead = await readJsonFile(mcpFile);
    if (mcpRead.kind === "missing") continue;
    if (mcpRead.kind === "error") {
      layer.problems.push(mcpRead.problem);
      continue;
    }
    const servers = isPlainObject(mcpRead.value) ? mcpRead.value.mcpServers : undefined;
    if (!isPlainObject(servers)) {
      layer.problems.push({
        severity: "error",
        file: mcpFile,
        field: "mcpServers",
        message: "expected an object of servers by name",
      });
      continue;
    }
    const dataDir = path.join(context.agentDir, "plugin-data", plugin);
    const check = await loadLayerCheck();
    for (const [server, raw] of Object.entries(servers)) {
      const keyPath = `mcpServers.${server}`;
      if (!isPlainObject(raw)) {
        layer.problems.push({
          severity: "error",
          file: mcpFile,
          field: keyPath,
          message: "expected an object",
        });
        continue;
      }
      const mapped = mapPluginEntry(raw, root, dataDir);
      if ("error" in mapped) {
        layer.problems.push({
          severity: "error",
          file: mcpFile,
          field: `${keyPath}.type`,
          message: mapped.error,
        });
        continue;
      }
      const result = parseServerEntry(mapped.raw, mcpFile, keyPath, check);
      layer.problems.push(...result.problems);
      if (result.parsed) {
        layer.entries.push({
          name: `${plugin}__${server}`,
          ...result.parsed,
          source: { file: mcpFile, key: keyPath },
        });
      }
    }
  }
  return layers;
}

function mapPluginEntry(
  raw: Record<string, unknown>,
  root: string,
  dataDir: string,
): { raw: Record<string, unknown> } | { error: string } {
  const declared =
    typeof raw.type === "string" ? raw.type : raw.url !== undefined ? "streamable-http" : "stdio";
  const type = Object.hasOwn(PLUGIN_TYPES, declared) ? PLUGIN_TYPES[declared] : undefined;
  if (!type)
    return { error: `unknown server type "${String(raw.type)}" (expected stdio, streamable-http or sse)` };
  const mapped: Record<string, unknown> = { ...raw, type };
  if (type !== "stdio") return { raw: mapped };
  const expand = (value: string) =>
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the host's own placeholder syntax
    value.replaceAll("${PLUGIN_ROOT}", root).replaceAll("${PLUGIN_DATA}", dataDir);
  if (Array.isArray(raw.args)) mapped.args = raw.args.map((a) => (typeof a === "string" ? expand(a) : a));
  if (typeof raw.cwd === "string") mapped.cwd = path.resolve(root, expand(raw.cwd));
  const env = isPlainObject(raw.env) ? raw.env : {};
  mapped.env = {
    ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, typeof v === "string" ? expand(v) : v])),
    PLUGIN_ROOT: root,
    PLUGIN_DATA: dataDir,
  };
  if (typeof raw.command === "string" && (raw.command.startsWith("./") || raw.command.startsWith("../"))) {
    mapped.command = path.resolve(root, raw.command);
  }
  return { raw: mapped };
}
