// Core's wire shapes, re-exported as types for callers that imported them from here.
export type {
  PromptResult,
  RemotePrompt,
  RemoteResource,
  RemoteResourceTemplate,
  ResourceContents,
} from "@pi-mcp-adapter/core";
export { DEFAULT_REQUESTS_PER_CALL } from "./call-window.js";
export {
  type ClientHandlers,
  clientCapabilities,
  type DeclaredCapabilities,
  type HandlerContext,
} from "./client-handlers.js";
export {
  ConnectionManager,
  type ConnectionManagerOptions,
  type NotificationEventListener,
  type ReplaceReport,
  type SessionRenewedListener,
} from "./connection-manager.js";
export { TransportError, type TransportErrorCode } from "./errors.js";
export { type FetchLike, probeHttpShape } from "./http-shape-probe.js";
export { connectServer } from "./lazy-connect.js";
export {
  type BackoffOptions,
  backoffDelay,
  DEFAULT_HEALTH_INTERVAL_MS,
  DEFAULT_IDLE_TIMEOUT_MIN,
  DEFAULT_START_TIMEOUT_MS,
  type FailureBackoffOptions,
  failureWindow,
  type LifecyclePolicy,
  lifecyclePolicy,
} from "./lifecycle-policy.js";
export { DEFAULT_MAX_FRAME_BYTES, type FrameOptions } from "./line-framed-transport.js";
export { type NpxInvocation, parseNpxArgs } from "./npx-args.js";
export {
  createNpxResolver,
  defaultNpmCacheDir,
  NPX_CACHE_TTL_MS,
  type NpxResolverOptions,
  type ResolveCommand,
} from "./npx-resolver.js";
export { ProcessTransport, type ProcessTransportOptions } from "./process-transport.js";
export { isGroupAlive, terminateProcessTree } from "./process-tree.js";
export { type EraCache, MODERN_REVISION } from "./protocol-revision.js";
export {
  MAX_RETRY_AFTER_MS,
  READ_RETRIES,
  READ_RETRY_DELAYS_MS,
  RETRIED_METHODS,
  type Sleep,
} from "./read-retry.js";
export type {
  CallOptions,
  CompletionRef,
  CompletionRequest,
  CompletionResult,
  ConnectedVia,
  ServerFeatures,
} from "./remote-types.js";
export { DEFAULT_MAX_TOTAL_TIMEOUT_MS } from "./request-deadline.js";
export type { SandboxOptions } from "./sandbox/sandbox-spawn.js";
export { sandboxUnavailableReason } from "./sandbox-check.js";
export {
  type ClientIdentity,
  type ConnectOptions,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ServerConnection,
  type SharingOptions,
} from "./server-connection.js";
export type {
  LoggingLevel,
  NotificationListener,
  ServerNotification,
  TaskStatusMethod,
} from "./server-notification.js";
export type { ConnectionState, ServerStatus, StatusListener } from "./server-status.js";
export type { SessionRenewalListener, SessionRenewalPhase } from "./session-renewal.js";
export type { SharedState } from "./shared-state.js";
export { SocketTransport } from "./socket-transport.js";
export type { SpawnFn } from "./spawn-process.js";
export { DEFAULT_TASK_TIMEOUT_MS, type TaskState, type TaskUpdate } from "./task-update.js";
export type { Timers } from "./timers.js";
