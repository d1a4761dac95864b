/**
 * Checks a raw `outputGuard` value (SDK use: a value handed in directly, not
 * through config) with core's schema. It loads zod, so it is exported from
 * `@pi-mcp-adapter/output-guard/schemas`, not from the package root.
 */
import type { OutputGuardSetting } from "@pi-mcp-adapter/core";
import { OutputGuardSettingSchema } from "@pi-mcp-adapter/core/schemas";
import { OutputGuardError } from "./errors.js";

/** Parses a raw setting; `where` names its place (file and field) in the error message. */
export function parseOutputGuardSetting(value: unknown, where: string): OutputGuardSetting {
  const parsed = OutputGuardSettingSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? `.${issue.path.join(".")}` : "";
  throw new OutputGuardError(
    "invalid_output_guard_settings",
    `${where}${field}: ${issue?.message ?? "invalid value"}; expected true, false or { maxBytes, maxLines } as positive integers and detailsMaxBytes as an integer ≥ 0 (got ${JSON.stringify(value)?.slice(0, 80)})`,
  );
}
