/**
 * Merges config layers, lowest precedence first.
 *
 * - Servers merge by name: a higher layer that names an endpoint (`command`,
 *   `url` or `socket`) replaces the lower definition; one that does not only
 *   overrides the fields it sets (that is how `{ "disabled": true }` in
 *   `.pi/mcp-adapter.json` disables a server defined elsewhere). A project
 *   override of anything but `disabled` turns the result into a project
 *   definition, subject to approval.
 * - `disabledMcpServers` lists are unioned across layers; an explicit
 *   `disabled: false` in a later project layer (what `enable` writes) lifts a
 *   project list entry. A server disabled by a user-level layer (list or
 *   `disabled: true`) stays disabled whatever a project layer says.
 * - Settings merge key by key; project layers cannot set user-only keys.
 */
import type { Provenance } from "@pi-mcp-adapter/core";
import type { ConfigLayer } from "../layers/config-layer.js";
import { definesEndpoint, type ServerEntry } from "../layers/server-entry.js";
import { type SettingKey, type Settings, USER_ONLY_SETTINGS } from "../layers/settings.js";
import { isProjectScope, type SourceScope } from "../layers/source-scope.js";
import type { ConfigProblem } from "../problems.js";

/** One server after merging: the entry every layer contributed to, and where its endpoint came from. */
export interface MergedEntry {
  name: string;
  entry: ServerEntry;
  extra: Record<string, unknown>;
  /** The layer that defined the endpoint. */
  source: Provenance;
  scope: SourceScope;
  layers: Provenance[];
}

export interface MergedLayers {
  entries: MergedEntry[];
  settings: Settings;
  /** Which file and key set each setting. */
  settingSources: Partial<Record<SettingKey, Provenance>>;
  /** Unknown settings keys, merged key by key like the known ones. */
  settingsExtra: Record<string, unknown>;
  problems: ConfigProblem[];
}

export function mergeConfigLayers(layers: readonly ConfigLayer[]): MergedLayers {
  const problems: ConfigProblem[] = [];
  const byName = new Map<string, MergedEntry>();
  /** Highest layer index whose `disabledMcpServers` lists the name. */
  const listedAt = new Map<string, number>();
  /** Highest layer index that set `disabled` on the current definition. */
  const flaggedAt = new Map<string, number>();
  const stickyDisabled = new Set<string>();

  layers.forEach((layer, index) => {
    for (const name of layer.disabledNames) {
      listedAt.set(name, index);
      if (!isProjectScope(layer.scope)) stickyDisabled.add(name);
    }
    for (const item of layer.entries) {
      // Only the user's own files make `disabled: true` stick; a host import or a package merely ships it.
      const shipped = layer.scope === "import" || layer.scope === "package";
      if (item.entry.disabled === true && !isProjectScope(layer.scope) && !shipped) {
        stickyDisabled.add(item.name);
      }
      const lower = byName.get(item.name);
      if (definesEndpoint(item.entry) || !lower) {
        byName.set(item.name, {
          name: item.name,
          entry: { ...item.entry },
          extra: { ...item.extra },
          source: item.source,
          scope: layer.scope,
          layers: [...(lower?.layers ?? []), item.source],
        });
        if (item.entry.disabled !== undefined) flaggedAt.set(item.name, index);
        else flaggedAt.delete(item.name);
        continue;
      }
      const overrides = Object.fromEntries(Object.entries(item.entry).filter(([, v]) => v !== undefined));
      lower.entry = { ...lower.entry, ...overrides };
      lower.extra = { ...lower.extra, ...item.extra };
      lower.layers.push(item.source);
      // A project file that changes more than `disabled` makes the result a project definition:
      // it then needs approval like any project server.
      if (isProjectScope(layer.scope) && Object.keys(overrides).some((key) => key !== "disabled")) {
        lower.scope = layer.scope;
      }
      if (item.entry.disabled !== undefined) flaggedAt.set(item.name, index);
    }
  });

  for (const merged of byName.values()) {
    const sticky = stickyDisabled.has(merged.name);
    if (sticky && merged.entry.disabled === false) {
      const last = merged.layers.at(-1) ?? merged.source;
      problems.push({
        severity: "warning",
        file: last.file,
        field: `${last.key}.disabled`,
        message: `server "${merged.name}" is disabled in a user-level config; a project file cannot re-enable it`,
      });
    }
    // A list entry disables the server unless a later layer explicitly sets `disabled` (enable writes `false`).
    const listed =
      (listedAt.get(merged.name) ?? -1) >= (flaggedAt.get(merged.name) ?? -1) && listedAt.has(merged.name);
    if (sticky || listed) merged.entry.disabled = true;
  }

  const settings: Record<string, unknown> = {};
  const settingSources: Partial<Record<SettingKey, Provenance>> = {};
  const settingsExtra: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.settings) as [SettingKey, unknown][]) {
      if (isProjectScope(layer.scope) && USER_ONLY_SETTINGS.has(key)) {
        problems.push({
          severity: "warning",
          file: layer.file,
          field: `settings.${key}`,
          message: "this setting is honoured only in user-level config files, ignored here",
        });
        continue;
      }
      settings[key] = value;
      settingSources[key] = { file: layer.file, key: `settings.${key}` };
    }
  }
  for (const layer of layers) Object.assign(settingsExtra, layer.settingsExtra);
  return {
    entries: [...byName.values()],
    settings: settings as Settings,
    settingSources,
    settingsExtra,
    problems,
  };
}
