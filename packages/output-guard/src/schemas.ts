/**
 * `@pi-mcp-adapter/output-guard/schemas`: the guard's settings as zod schemas
 * (core's, shared with config) and the check of a raw `outputGuard` value.
 * Importing it loads zod; the package root does not.
 */
export {
  OutputGuardLimitsSchema,
  type OutputGuardSetting,
  OutputGuardSettingSchema,
  type ToonEncodeSetting,
  ToonEncodeSettingSchema,
} from "@pi-mcp-adapter/core/schemas";
export { parseOutputGuardSetting } from "./parse-output-guard-setting.js";
