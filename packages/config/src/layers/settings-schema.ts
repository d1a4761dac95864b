/**
 * The zod schema of the global settings (`"settings": { … }`), paired with
 * its type. Loaded only where a settings object must be validated (a config
 * file that changed, SDK input), never for an unchanged file on a host's
 * start path; `settings.ts` parses with the check it is handed.
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
} from "@pi-mcp-adapter/core/schemas";
import { z } from "zod";

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
