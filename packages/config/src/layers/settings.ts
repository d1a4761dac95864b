/**
 * Global settings (`"settings": { … }` in any config file). Every key is
 * optional; files merge key by key, the higher source winning per key.
 * The values are checked by the `LayerCheck` handed in (zod's schema in
 * `settings-schema.ts`, or the plain copy for a file validated before), so
 * this module loads no zod.
 */
import type { ConfigProblem } from "../problems.js";
import { SETTING_KEYS } from "./entry-keys.js";
import type { LayerCheck } from "./layer-check.js";
import { REFERENCE_ONLY, REFERENCE_ONLY_SETTINGS } from "./reference-aliases.js";
import type { SettingKey, Settings } from "./settings-schema.js";

export type { SettingKey, Settings } from "./settings-schema.js";

const SETTING_KEY_SET: ReadonlySet<string> = new Set(SETTING_KEYS);

/** Keys a project file may not set: they decide what project files may do. */
export const USER_ONLY_SETTINGS: ReadonlySet<SettingKey> = new Set([
  "projectServers",
  "ancestorConfigRoots",
  "hostConfigDiscovery",
  // A project must not switch off the check that protects against its own servers changing.
  "pinTools",
]);

/**
 * Validates a `settings` object key by key: a bad value drops only that key,
 * an unknown key is kept in `extra` (not in the typed result) and reported as a warning.
 */
export function parseSettings(
  raw: unknown,
  file: string,
  check: LayerCheck,
  keyPath = "settings",
): { settings: Settings; extra: Record<string, unknown>; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const settings: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  if (raw === undefined) return { settings, extra, problems };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return {
      settings,
      extra,
      problems: [{ severity: "error", file, field: keyPath, message: "expected an object" }],
    };
  }
  for (const [key, value] of Object.entries(raw)) {
    if (!SETTING_KEY_SET.has(key)) {
      extra[key] = value;
      problems.push({
        severity: "warning",
        file,
        field: `${keyPath}.${key}`,
        message: REFERENCE_ONLY_SETTINGS.has(key) ? REFERENCE_ONLY : "unknown setting, kept but not used",
      });
      continue;
    }
    const result = check.setting(key as SettingKey, value);
    if (!result.success) {
      for (const issue of result.issues) {
        const field = [keyPath, key, ...issue.path.map(String)].join(".");
        problems.push({ severity: "error", file, field, message: issue.message });
      }
      continue;
    }
    settings[key] = result.data;
  }
  return { settings: settings as Settings, extra, problems };
}
