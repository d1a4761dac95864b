/**
 * Settings the config schema accepts (so a config written for the next
 * release, or for the reference adapter, still loads) that this version
 * does not act on yet. Each one that is set becomes a warning naming its
 * file and field, shown in `mcp({})`, `/mcp-adapter` and the CLI's status,
 * so nobody believes a setting works when it does nothing.
 *
 * One list: the issue that implements a key deletes it from here.
 */
import type { ConfigProblem, ConfiguredServer, ResolvedConfig, SettingKey } from "@pi-mcp-adapter/config";

/** Global `settings` keys that are recognised but have no effect yet. */
export const UNSUPPORTED_SETTINGS: readonly SettingKey[] = [];

/** Per-server keys that are recognised but have no effect yet. */
export const UNSUPPORTED_SERVER_KEYS: readonly (keyof ConfiguredServer)[] = [];

export const NOT_SUPPORTED_YET = "recognised but not supported yet: it has no effect in this version";

/** A warning for each unsupported key the config sets, naming the file and field that set it. */
export function unsupportedSettingProblems(
  config: Pick<ResolvedConfig, "settings" | "settingSources" | "servers">,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const key of UNSUPPORTED_SETTINGS) {
    if (config.settings[key] === undefined) continue;
    const source = config.settingSources[key];
    problems.push({
      severity: "warning",
      file: source?.file ?? "settings",
      field: source?.key ?? `settings.${key}`,
      message: NOT_SUPPORTED_YET,
    });
  }
  for (const server of config.servers) {
    for (const key of UNSUPPORTED_SERVER_KEYS) {
      if (server[key] === undefined) continue;
      // The defining file; an overriding layer may have set the key instead, so those files are named too.
      const others = server.layers.filter((l) => l.file !== server.source.file).map((l) => l.file);
      problems.push({
        severity: "warning",
        file: server.source.file,
        field: `${server.source.key}.${key}`,
        message: others.length
          ? `${NOT_SUPPORTED_YET} (merged with ${others.join(", ")})`
          : NOT_SUPPORTED_YET,
      });
    }
  }
  return problems;
}
