/**
 * The `LayerCheck` that validates (a config file that changed or was never
 * validated, a registration, SDK input): zod's schemas, with each issue at its
 * field. Importing it loads zod, so only `layer-check-loader.ts` does.
 */
import type { z } from "zod";
import type { CheckIssue, LayerCheck } from "./layer-check.js";
import { ServerEntrySchema } from "./server-entry-schema.js";
import { type SettingKey, SettingsSchema } from "./settings-schema.js";

const SETTINGS_SHAPE = SettingsSchema.shape as Record<SettingKey, z.ZodType>;

export const zodLayerCheck: LayerCheck = {
  entry(value) {
    const result = ServerEntrySchema.safeParse(value);
    return result.success
      ? { success: true, data: result.data }
      : { success: false, issues: result.error.issues.flatMap(closestUnionIssues) };
  },
  setting(key, value) {
    const result = SETTINGS_SHAPE[key].safeParse(value);
    return result.success
      ? { success: true, data: result.data }
      : { success: false, issues: result.error.issues };
  },
};

/**
 * A value that fits no option of a union (`oauth: false | {…}`) is reported
 * by the option of its own type (an object's bad fields), not as "Invalid input".
 */
function closestUnionIssues(issue: z.core.$ZodIssue): CheckIssue[] {
  if (issue.code !== "invalid_union") return [issue];
  // The option the value's type fits fails only below its root.
  const sameType = issue.errors.filter((errors) => errors.every((e) => e.path.length > 0));
  if (sameType.length !== 1 || !sameType[0]) return [issue];
  return sameType[0].map((e) => ({ ...e, path: [...issue.path, ...e.path] }));
}
