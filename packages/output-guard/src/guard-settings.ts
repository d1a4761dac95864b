/**
 * The guard's settings (their schemas are core's, shared with config): the
 * `outputGuard` setting and how it combines with `MCP_OUTPUT_GUARD`, and
 * `spillMaxAgeDays`.
 */
import {
  type OutputGuardSetting,
  OutputGuardSettingSchema,
  SpillMaxAgeDaysSchema,
} from "@pi-mcp-adapter/core";
import { OutputGuardError } from "./errors.js";
import { DEFAULT_SPILL_MAX_AGE_DAYS } from "./stale-files.js";

export const DEFAULT_MAX_BYTES = 50 * 1024;
export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_DETAILS_MAX_BYTES = 16 * 1024;

export interface ResolvedOutputGuard {
  enabled: boolean;
  maxBytes: number;
  maxLines: number;
  detailsMaxBytes: number;
}

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

/** `MCP_OUTPUT_GUARD=0` (or `false`, `off`) turns the guard off whatever the setting says. */
export function resolveOutputGuard(
  setting: OutputGuardSetting | undefined,
  env: Record<string, string | undefined> = process.env,
): ResolvedOutputGuard {
  const limits = typeof setting === "object" ? setting : {};
  const envOff = /^(0|false|off|no)$/i.test(env.MCP_OUTPUT_GUARD?.trim() ?? "");
  return {
    enabled: setting !== false && !envOff,
    maxBytes: limits.maxBytes ?? DEFAULT_MAX_BYTES,
    maxLines: limits.maxLines ?? DEFAULT_MAX_LINES,
    detailsMaxBytes: limits.detailsMaxBytes ?? DEFAULT_DETAILS_MAX_BYTES,
  };
}

/** The `spillMaxAgeDays` setting in milliseconds (default 7 days); throws an `OutputGuardError` naming it when it is not a number of days above 0. */
export function spillMaxAgeMs(days: unknown = DEFAULT_SPILL_MAX_AGE_DAYS): number {
  const parsed = SpillMaxAgeDaysSchema.safeParse(days);
  if (!parsed.success) {
    throw new OutputGuardError(
      "invalid_spill_max_age",
      `spillMaxAgeDays: ${parsed.error.issues[0]?.message ?? "invalid value"} (got ${JSON.stringify(days)?.slice(0, 80)})`,
    );
  }
  return parsed.data * 24 * 60 * 60 * 1000;
}
