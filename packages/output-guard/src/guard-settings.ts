/**
 * The guard's settings (their schemas are core's, shared with config): the
 * `outputGuard` setting and how it combines with `MCP_OUTPUT_GUARD`, and
 * `spillMaxAgeDays`. No zod here: a guard is made on a host's start path;
 * checking a raw `outputGuard` value is `parse-output-guard-setting.ts`.
 */
import type { OutputGuardSetting } from "@pi-mcp-adapter/core";
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
  // What core's `SpillMaxAgeDaysSchema` accepts, with its messages (stale-files.test.ts keeps them in step).
  const problem =
    typeof days !== "number" || !Number.isFinite(days)
      ? "expected a number of days"
      : days <= 0
        ? "expected a number of days greater than 0"
        : undefined;
  if (problem !== undefined) {
    throw new OutputGuardError(
      "invalid_spill_max_age",
      `spillMaxAgeDays: ${problem} (got ${JSON.stringify(days)?.slice(0, 80)})`,
    );
  }
  return (days as number) * 24 * 60 * 60 * 1000;
}
