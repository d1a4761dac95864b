/**
 * The `outputGuard` setting and how it combines with `MCP_OUTPUT_GUARD`.
 */
import { z } from "zod";
import { OutputGuardError } from "./errors.js";

export const DEFAULT_MAX_BYTES = 50 * 1024;
export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_DETAILS_MAX_BYTES = 16 * 1024;

export const OutputGuardLimitsSchema = z
  .object({
    maxBytes: z.number().int().positive(),
    maxLines: z.number().int().positive(),
    detailsMaxBytes: z.number().int().nonnegative(),
  })
  .partial()
  .strict();
export type OutputGuardLimits = z.infer<typeof OutputGuardLimitsSchema>;

/** `false` turns the guard off; an object tunes its limits; `true` or absent means the defaults. */
export const OutputGuardSettingSchema = z.union([z.boolean(), OutputGuardLimitsSchema]);
export type OutputGuardSetting = z.infer<typeof OutputGuardSettingSchema>;

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
    `${where}${field}: expected false or { maxBytes, maxLines, detailsMaxBytes } with positive integers; ${issue?.message ?? "invalid value"} (got ${JSON.stringify(value)?.slice(0, 80)})`,
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
