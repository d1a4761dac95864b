/**
 * Global settings (`"settings": { … }` in any config file). Every key is
 * optional; files merge key by key, the higher source winning per key.
 * Settings a feature package also reads (`approveTools`, `outputGuard`,
 * `toonEncode`, …) take their schema from core, so both validate alike.
 */
import {
  ApproveToolsSettingSchema,
  FailureBackoffMsSchema,
  IdleTimeoutMinutesSchema,
  MaxTotalTimeoutMsSchema,
  OutputGuardSettingSchema,
  PinToolsSettingSchema,
  RequestTimeoutMsSchema,
  ShareServersSettingSchema,
  SpillMaxAgeDaysSchema,
  TaskModeSchema,
  TaskTimeoutMsSchema,
  ToolPrefixModeSchema,
  ToonEncodeSettingSchema,
} from "@pi-mcp-adapter/core";
import { z } from "zod";
import type { ConfigProblem } from "../problems.js";
import { REFERENCE_ONLY, REFERENCE_ONLY_SETTINGS } from "./reference-aliases.js";

export const TraceSettingsSchema = z.object({
  enabled: z.boolean().optional(),
  file: z.string().optional(),
  maxBytes: z.number().int().positive().optional(),
  maxEvents: z.number().int().positive().optional(),
});

export const SettingsSchema = z
  .object({
    toolPrefix: ToolPrefixModeSchema,
    idleTimeout: IdleTimeoutMinutesSchema,
    /** How often keep-alive servers are listed again, in minutes (default 5); `0`: only on `list_changed`. */
    keepAliveRelistMinutes: z.number().min(0).max(1440),
    /** How long use leaves a failed server alone before starting it again (doubled once on repeated failure). */
    failureBackoffMs: FailureBackoffMsSchema,
    requestTimeoutMs: RequestTimeoutMsSchema,
    maxTotalTimeoutMs: MaxTotalTimeoutMsSchema,
    /** One process per stdio server for all of the user's sessions, through the per-user daemon. */
    shareServers: ShareServersSettingSchema,
    /** Which calls ask for an MCP task, for servers without their own `tasks`. */
    tasks: TaskModeSchema,
    /** How long a task may run in all, for servers without their own `taskTimeoutMs`. */
    taskTimeoutMs: TaskTimeoutMsSchema,
    showStatusIcon: z.boolean(),
    mcpFooterStatus: z.enum(["full", "compact", "off"]),
    toolResultRendering: z.enum(["compact", "boxed"]),
    collapsedResultLines: z.number().int().min(1).max(3),
    notifyOnStartupConnect: z.boolean(),
    /** User-level only: load (`on`) or just detect (`prompt`) other hosts' configs. */
    hostConfigDiscovery: z.enum(["off", "on", "prompt"]),
    agentPluginPaths: z.array(z.string()),
    approveTools: ApproveToolsSettingSchema,
    /** Tool pinning: `true`/`"enforce"` (default), `"warn"` (report only), `false` (off). */
    pinTools: PinToolsSettingSchema,
    oauthDir: z.string(),
    oauthCredentialStore: z.string().min(1),
    oauthClientName: z.string().min(1),
    /** `"auto"`: every tool declared directly while the enabled catalog is small (see the runtime). */
    directTools: z.union([z.boolean(), z.literal("search"), z.literal("auto")]),
    freezeDirectTools: z.boolean(),
    deferWithMissingMetadata: z.boolean(),
    strictDirectToolArguments: z.boolean(),
    directToolResultDetails: z.enum(["lean", "bounded"]),
    namespaceProxyTools: z.boolean(),
    scriptMode: z.boolean(),
    disableProxyTool: z.boolean(),
    autoAuth: z.boolean(),
    sampling: z.boolean(),
    samplingAutoApprove: z.boolean(),
    elicitation: z.boolean(),
    outputGuard: OutputGuardSettingSchema,
    /** Days the full texts of cut results stay on disk after their session (default 7). */
    spillMaxAgeDays: SpillMaxAgeDaysSchema,
    trace: TraceSettingsSchema,
    captureStats: z.union([z.boolean(), z.object({ file: z.string().optional() })]),
    toonEncode: ToonEncodeSettingSchema,
    /** User-global only: `"allow"` admits unapproved project servers in headless trusted sessions. */
    projectServers: z.enum(["ask", "allow"]),
    /** User-global only: ancestor directories whose project files may be read. Off when absent. */
    ancestorConfigRoots: z.array(z.string()),
  })
  .partial();
export type Settings = z.infer<typeof SettingsSchema>;
export type SettingKey = keyof Settings;

/** Keys a project file may not set: they decide what project files may do. */
export const USER_ONLY_SETTINGS: ReadonlySet<SettingKey> = new Set([
  "projectServers",
  "ancestorConfigRoots",
  "hostConfigDiscovery",
  // A project must not switch off the check that protects against its own servers changing.
  "pinTools",
]);

const SHAPE = SettingsSchema.shape as Record<string, z.ZodType>;

/**
 * Validates a `settings` object key by key: a bad value drops only that key,
 * an unknown key is kept in `extra` (not in the typed result) and reported as a warning.
 */
export function parseSettings(
  raw: unknown,
  file: string,
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
    const schema = Object.hasOwn(SHAPE, key) ? SHAPE[key] : undefined;
    if (!schema) {
      extra[key] = value;
      problems.push({
        severity: "warning",
        file,
        field: `${keyPath}.${key}`,
        message: REFERENCE_ONLY_SETTINGS.has(key) ? REFERENCE_ONLY : "unknown setting, kept but not used",
      });
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = [keyPath, key, ...issue.path.map(String)].join(".");
        problems.push({ severity: "error", file, field, message: issue.message });
      }
      continue;
    }
    settings[key] = result.data;
  }
  return { settings: settings as Settings, extra, problems };
}
