import { z } from "zod";
import {
  ApproveToolsSettingSchema,
  IdleTimeoutMinutesSchema,
  MaxTotalTimeoutMsSchema,
  RequestTimeoutMsSchema,
  SandboxSettingSchema,
  SearchKeywordsSettingSchema,
  ShareServersSettingSchema,
  TaskModeSchema,
  TaskTimeoutMsSchema,
  ToolGlobListSchema,
} from "./setting-schemas.js";

/** How the adapter talks to a server. */
export const TransportKindSchema = z.enum(["stdio", "http", "sse", "socket"]);
export type TransportKind = z.infer<typeof TransportKindSchema>;

/** When a server connects and whether it stays connected. */
export const LifecycleSchema = z.enum(["lazy", "eager", "keep-alive", "lazy-keep-alive"]);
export type Lifecycle = z.infer<typeof LifecycleSchema>;

/** Which MCP protocol generation to speak. */
export const ProtocolModeSchema = z.enum(["legacy", "auto", "2026-07-28"]);
export type ProtocolMode = z.infer<typeof ProtocolModeSchema>;

/** How tool names are prefixed when exposed to the model. */
export const ToolPrefixModeSchema = z.enum(["server", "short", "none", "mcp"]);
export type ToolPrefixMode = z.infer<typeof ToolPrefixModeSchema>;

/** Where a value came from: the file that defined it and the key path inside it. */
export const ProvenanceSchema = z.object({
  file: z.string(),
  key: z.string(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * One MCP server, normalised from whichever config shape defined it.
 * Secret values (`!command` strings) are kept verbatim here; they are resolved
 * only when connecting.
 */
export const ServerDefinitionSchema = z.object({
  name: z.string().min(1),
  transport: TransportKindSchema,
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  /** Stdio only: run the server in a sandbox (see `SandboxSettingSchema`). */
  sandbox: SandboxSettingSchema.optional(),
  /** Stdio only: share one process with other sessions (see `ShareServersSettingSchema`); unset follows `shareServers`. */
  shared: ShareServersSettingSchema.optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /**
   * A PEM bundle of the CAs this HTTPS server's certificate chains to (a
   * private CA), as an absolute path. Trusted for this server's MCP and
   * same-origin OAuth requests only.
   */
  caFile: z.string().min(1).optional(),
  socket: z.string().optional(),
  lifecycle: LifecycleSchema.default("lazy"),
  idleTimeoutMin: IdleTimeoutMinutesSchema.optional(),
  requestTimeoutMs: RequestTimeoutMsSchema.optional(),
  maxTotalTimeoutMs: MaxTotalTimeoutMsSchema.optional(),
  /** Which calls ask for a task (MCP Tasks); see `TaskModeSchema`. */
  tasks: TaskModeSchema.optional(),
  /** How long a task may run in all; default 30 minutes. */
  taskTimeoutMs: TaskTimeoutMsSchema.optional(),
  protocol: ProtocolModeSchema.default("legacy"),
  toolPrefix: ToolPrefixModeSchema.optional(),
  /** `true` every tool, a list of original names, or `"auto"`: every tool while the whole catalog is small. */
  directTools: z.union([z.boolean(), z.literal("auto"), z.array(z.string())]).optional(),
  includeTools: ToolGlobListSchema.optional(),
  excludeTools: ToolGlobListSchema.optional(),
  approveTools: ApproveToolsSettingSchema.optional(),
  searchKeywords: SearchKeywordsSettingSchema.optional(),
  disabled: z.boolean().optional(),
  debug: z.boolean().optional(),
  source: ProvenanceSchema,
});
export type ServerDefinition = z.infer<typeof ServerDefinitionSchema>;
