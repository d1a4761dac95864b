// Core's wire shapes, re-exported as types for callers that imported them from here.
export type {
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  ResourceContents,
} from "@pi-mcp-adapter/core";
export { connectServer } from "./connect/lazy-connect.js";
export type {
  ClientIdentity,
  ConnectOptions,
  ServerConnection,
  SharingOptions,
} from "./connection/server-connection.js";
export { TransportError, type TransportErrorCode } from "./errors.js";
export type { FetchLike } from "./http/http-shape-probe.js";
export {
  MAX_RETRY_AFTER_MS,
  READ_RETRIES,
  READ_RETRY_DELAYS_MS,
  RETRIED_METHODS,
  type Sleep,
} from "./http/read-retry.js";
export { DEFAULT_REQUESTS_PER_CALL } from "./inbound/call-window.js";
export type { ClientHandlers, HandlerContext } from "./inbound/client-handlers.js";
export type {
  LoggingLevel,
  NotificationListener,
  ServerNotification,
  TaskStatusMethod,
} from "./inbound/server-notification.js";
export { ConnectionManager, type ConnectionManagerOptions } from "./lifecycle/connection-manager.js";
export type { BackoffOptions, FailureBackoffOptions } from "./lifecycle/lifecycle-policy.js";
export type { NotificationEventListener } from "./lifecycle/manager-events.js";
export type { ReplaceReport } from "./lifecycle/replace-plan.js";
export type { ConnectionState, ServerStatus, StatusListener } from "./lifecycle/server-status.js";
export type { CacheHints } from "./protocol/cache-hints.js";
export type { EraCache } from "./protocol/protocol-revision.js";
export type { SessionRenewalListener, SessionRenewalPhase } from "./protocol/session-renewal.js";
export type {
  CallOptions,
  CompletionRef,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "./remote-types.js";
export { sandboxUnavailableReason } from "./sandbox/sandbox-check.js";
export type { SandboxOptions } from "./sandbox/sandbox-spawn.js";
export { DEFAULT_MAX_FRAME_BYTES, type FrameOptions } from "./stdio/line-framed-transport.js";
export { createNpxResolver, type NpxResolverOptions, type ResolveCommand } from "./stdio/npx-resolver.js";
export { ProcessTransport, type ProcessTransportOptions } from "./stdio/process-transport.js";
export type { SharedState } from "./stdio/shared-state.js";
export type { SpawnFn } from "./stdio/spawn-process.js";
export {
  DEFAULT_TASK_TIMEOUT_MS,
  type TaskRevision,
  type TaskState,
  type TaskUpdate,
} from "./task-update.js";
export type { Timers } from "./timers.js";
