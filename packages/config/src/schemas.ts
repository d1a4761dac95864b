/**
 * `@pi-mcp-adapter/config/schemas`: the zod schemas of what users write (a
 * server entry's `oauth`, the settings) and the check config validates
 * entries and settings with. Importing it loads zod; the package root does not.
 */
export type { CheckIssue, CheckResult, LayerCheck } from "./layers/layer-check.js";
export { type OAuthOptions, OAuthOptionsSchema } from "./layers/server-entry-schema.js";
export { type SettingKey, type Settings, SettingsSchema } from "./layers/settings-schema.js";
export { zodLayerCheck } from "./layers/zod-layer-check.js";
