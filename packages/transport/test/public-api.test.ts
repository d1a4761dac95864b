/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/transport` (src/index.ts). */
const ROOT = [
  "BackoffOptions",
  "CacheHints",
  "CallOptions",
  "ClientHandlers",
  "ClientIdentity",
  "CompletionRef",
  "CompletionRequest",
  "CompletionResult",
  "ConnectOptions",
  "ConnectedVia",
  "ConnectionManager",
  "ConnectionManagerOptions",
  "ConnectionState",
  "DEFAULT_MAX_FRAME_BYTES",
  "DEFAULT_REQUESTS_PER_CALL",
  "DEFAULT_TASK_TIMEOUT_MS",
  "EraCache",
  "FailureBackoffOptions",
  "FetchLike",
  "FrameOptions",
  "HandlerContext",
  "LoggingLevel",
  "MAX_RETRY_AFTER_MS",
  "NotificationEventListener",
  "NotificationListener",
  "NpxResolverOptions",
  "ProcessTransport",
  "ProcessTransportOptions",
  "PromptResult",
  "READ_RETRIES",
  "READ_RETRY_DELAYS_MS",
  "RETRIED_METHODS",
  "RemotePrompt",
  "RemoteResource",
  "RemoteResourceTemplate",
  "ReplaceReport",
  "ResolveCommand",
  "ResourceContents",
  "SandboxOptions",
  "ServerConnection",
  "ServerFeatures",
  "ServerNotification",
  "ServerStatus",
  "SessionRenewalListener",
  "SessionRenewalPhase",
  "SharedState",
  "SharingOptions",
  "Sleep",
  "SpawnFn",
  "StatusListener",
  "TaskRevision",
  "TaskState",
  "TaskStatusMethod",
  "TaskUpdate",
  "Timers",
  "TransportError",
  "TransportErrorCode",
  "connectServer",
  "createNpxResolver",
  "sandboxUnavailableReason",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/transport exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });
});
