/**
 * Schemas of the settings that more than one package reads: config validates
 * them when loading files, the feature package when it is handed a value
 * directly (SDK use, tests). Defined here once so the two never drift.
 */
import { z } from "zod";

/** A list of tool globs (see `tool-glob.ts` for what a glob matches). */
export const ToolGlobListSchema = z.array(z.string(), {
  error: "expected a list of tool name globs (strings)",
});
export type ToolGlobList = z.infer<typeof ToolGlobListSchema>;

/**
 * `approveTools`, global and per server:
 * - `true`: every tool call asks; `false`: none does
 * - `"destructive"`: tools that do not declare `readOnlyHint: true`, or that declare `destructiveHint: true`
 * - `"writes"`: the read-only posture — every tool that does not declare `readOnlyHint: true`
 * - a list of tool globs: matching tools ask
 */
export const ApproveToolsSettingSchema = z.union(
  [z.boolean(), z.literal("destructive"), z.literal("writes"), ToolGlobListSchema],
  {
    error: 'expected true, false, "destructive", "writes" or a list of tool name globs',
  },
);
export type ApproveToolsSetting = z.infer<typeof ApproveToolsSettingSchema>;

/**
 * `pinTools`: what a tool that changed since it was accepted (description,
 * input schema, annotations) does. `true` / `"enforce"` (default): reported,
 * and a changed direct or approval-gated tool waits for the user to accept
 * it; `"warn"`: only reported; `false`: tools are not pinned.
 */
export const PinToolsSettingSchema = z.union([z.boolean(), z.literal("enforce"), z.literal("warn")], {
  error: 'expected true, false, "enforce" or "warn"',
});
export type PinToolsSetting = z.infer<typeof PinToolsSettingSchema>;

/**
 * Limits of the output guard. `maxBytes` / `maxLines` cap the text a model
 * sees inline; `detailsMaxBytes` caps the raw MCP result kept in a tool
 * result's details (the session file). `0` is allowed there and means: never
 * keep the raw result, only a summary and the spill file it was written to.
 */
export const OutputGuardLimitsSchema = z
  .object({
    maxBytes: z.number().int().positive(),
    maxLines: z.number().int().positive(),
    detailsMaxBytes: z.number().int().nonnegative(),
  })
  .partial()
  .strict();
export type OutputGuardLimits = z.infer<typeof OutputGuardLimitsSchema>;

/** `outputGuard`: `false` turns the guard off; an object tunes its limits; `true` or absent means the defaults. */
export const OutputGuardSettingSchema = z.union([z.boolean(), OutputGuardLimitsSchema], {
  error: "expected true, false or { maxBytes, maxLines, detailsMaxBytes }",
});
export type OutputGuardSetting = z.infer<typeof OutputGuardSettingSchema>;

/**
 * `spillMaxAgeDays`: how long the full texts of cut results (spill files)
 * stay on disk. They outlive the session that wrote them, so a resumed session
 * and the user can still open the files it named; a session removes its own
 * user's spill files older than this when it starts. Default 7; fractions allowed.
 */
export const SpillMaxAgeDaysSchema = z.number({ error: "expected a number of days" }).positive({
  error: "expected a number of days greater than 0",
});

/** `toonEncode`: `true` for every server, or a list of server names. */
export const ToonEncodeSettingSchema = z.union([z.boolean(), z.array(z.string())], {
  error: "expected true, false or a list of server names",
});
export type ToonEncodeSetting = z.infer<typeof ToonEncodeSettingSchema>;

/**
 * A server's `searchKeywords`: tool glob → extra words the tool is found by.
 * Every key whose glob matches a tool contributes its words.
 */
export const SearchKeywordsSettingSchema = z.record(z.string(), z.array(z.string()), {
  error: 'expected an object of tool glob → list of words, e.g. { "create_*": ["new"] }',
});
export type SearchKeywordsSetting = z.infer<typeof SearchKeywordsSettingSchema>;

/** `idleTimeout`: minutes without a call before a server is disconnected; `0` never disconnects. */
export const IdleTimeoutMinutesSchema = z.number().nonnegative();

/**
 * `failureBackoffMs`: how long a server that failed to start, failed its
 * initialize or crashed is left alone before use starts it again (doubled
 * after a second failure in a row); `0` retries on every use. Default 30000.
 */
export const FailureBackoffMsSchema = z.number().int().nonnegative();

/**
 * `shareServers` (global) and a server's own `shared`: run a stdio server once
 * for every session of the user, in the per-user daemon, instead of once per
 * session. A server's `shared` wins over the global (`false` opts out,
 * `true` opts in). Only stdio servers can be shared.
 */
export const ShareServersSettingSchema = z.boolean({ error: "expected true or false" });

/**
 * `requestTimeoutMs`: how long one request to a server may go without an
 * answer or a progress notification. Time spent waiting on the user (a form,
 * a sampling approval, the host model's answer) does not count.
 */
export const RequestTimeoutMsSchema = z.number().int().positive();

/**
 * `maxTotalTimeoutMs`: the most one request may take however often it
 * reports progress (each progress notification restarts `requestTimeoutMs`).
 * Time spent waiting on the user does not count here either.
 */
export const MaxTotalTimeoutMsSchema = z.number().int().positive();

/**
 * `tasks`, global and per server: which calls ask for a task (MCP Tasks).
 * A tool declaring `execution.taskSupport: "required"` always runs as a task;
 * this decides the rest:
 * - `"auto"` (default): `optional` tools run as plain calls; on 2026-07-28 the
 *   client offers the extension on every call and the server decides
 * - `"always"`: `optional` tools run as tasks too
 * - `"never"`: `optional` tools run as plain calls, and on 2026-07-28 the
 *   extension is not offered
 */
export const TaskModeSchema = z.enum(["auto", "always", "never"], {
  error: 'expected "auto", "always" or "never"',
});
export type TaskMode = z.infer<typeof TaskModeSchema>;

/** `taskTimeoutMs`: how long a task may run in all (it replaces `requestTimeoutMs` while it runs). */
export const TaskTimeoutMsSchema = z.number().int().positive();

const PathListSchema = z.array(z.string().min(1), { error: "expected a list of paths (strings)" });

/**
 * The widening object of a stdio server's `sandbox`: extra writable paths,
 * extra unreadable paths, and hosts the server may reach (through a proxy that
 * lets only those through; `*.example.com` covers the subdomains). Paths are
 * absolute, `~/…`, or relative to the server's `cwd`.
 */
export const SandboxRulesSchema = z
  .object({
    network: z
      .object({
        allow: z
          .array(
            z
              .string()
              .regex(
                /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^[0-9a-fA-F:.]+$/,
                {
                  error:
                    'expected a host name ("api.github.com"), "*.example.com" for its subdomains, or an IP address',
                },
              ),
          )
          .optional(),
      })
      .strict()
      .optional(),
    filesystem: z
      .object({ allowWrite: PathListSchema.optional(), denyRead: PathListSchema.optional() })
      .strict()
      .optional(),
  })
  .strict();
export type SandboxRules = z.infer<typeof SandboxRulesSchema>;

/**
 * `sandbox` of a stdio server: `true` runs it without network, writing only in
 * its `cwd` and a private temp dir, reading everything but credential places;
 * an object does the same and widens it (see `SandboxRulesSchema`).
 */
export const SandboxSettingSchema = z.union([z.boolean(), SandboxRulesSchema], {
  // An object that fails says which of its members is wrong, not just "invalid".
  error: (issue) => {
    const inner = issue.code === "invalid_union" ? issue.errors[1]?.[0] : undefined;
    if (inner && typeof issue.input === "object" && issue.input !== null) {
      return inner.path.length ? `${inner.path.join(".")}: ${inner.message}` : inner.message;
    }
    return "expected true, false or { network: { allow }, filesystem: { allowWrite, denyRead } }";
  },
});
export type SandboxSetting = z.infer<typeof SandboxSettingSchema>;
