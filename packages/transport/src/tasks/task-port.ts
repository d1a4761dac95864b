/**
 * The seam ext-tasks drives a connection through (`ConnectedMcpSessionPort`),
 * written once over our `ProtocolClient`, so one task path serves SDK v1 and
 * v2 alike. (ext-tasks' own adapter takes only an SDK v2 `Client`, and takes
 * over its fallback handlers and `onclose`, which this package owns.)
 *
 * - 2025-11-25 (either SDK): requests go through the SDK client with a result
 *   schema that accepts anything; ext-tasks checks the shapes.
 * - 2026-07-28: `tools/call` and `tasks/*` go out below the SDK
 *   (`ProtocolClient.rawRequest`), their `_meta` framed here: protocol
 *   version, client info, and client capabilities naming the extension.
 * - Server requests (elicitation, sampling, roots) reach the connection's own
 *   handlers through the SDK, so the port hands none to ext-tasks; status
 *   notifications come from the connection's notification relay — on
 *   2026-07-28 once a `subscriptions/listen` stream asked for them
 *   (`listenTask`); ext-tasks polls beside it, so a server that does not
 *   offer them, or a stream that drops, leaves the task followed by polling.
 */
import type {
  ConnectedMcpSessionPort,
  JsonRpcResponse,
  SessionTaskCapabilities,
} from "@modelcontextprotocol/ext-tasks/client";
import { DispatchError } from "@modelcontextprotocol/ext-tasks/client";
import { describeError } from "@pi-mcp-adapter/core";
import type { NotificationRelay } from "../inbound/server-notification.js";
import { isObject } from "../is-object.js";
import type { ProtocolClient, RawResponse } from "../protocol/protocol-client.js";
import { MODERN_REVISION } from "../protocol/protocol-revision.js";
import type { RawSubscription } from "../protocol/raw-listen.js";
import { TASKS_EXTENSION_ID } from "../task-update.js";

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
const CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo";
const CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

export interface TaskPortParts {
  server: string;
  client: ProtocolClient;
  notifications: NotificationRelay;
  /** Subscribes to the connection's end; returns the unsubscribe. */
  onClose: (listener: () => void) => () => void;
  /** The connection's per-request timeout, for requests ext-tasks sends without one. */
  requestTimeoutMs: number;
  /** Whether the server's tasks outlive this connection (a remote or shared server): closing detaches them. */
  outlives?: boolean;
  /** Who we are and what we declared, for the per-request `_meta` of 2026-07-28. */
  clientInfo: { name: string; version: string };
  clientCapabilities: object;
}

type Json = Parameters<ConnectedMcpSessionPort["dispatch"]>[0];
type Request = { method: string; params?: Record<string, unknown> };

/** Which task generation the connected server speaks, from what it declared. */
export function taskCapabilitiesOf(client: ProtocolClient): SessionTaskCapabilities {
  const capabilities = client.serverCapabilities() ?? {};
  if (client.protocolVersion() === MODERN_REVISION) {
    const extensions = capabilities.extensions as Record<string, unknown> | undefined;
    const extension = extensions?.[TASKS_EXTENSION_ID];
    return isEmptyObject(extension) ? { generation: "v2", capabilities: {} } : { generation: "none" };
  }
  const tasks = capabilities.tasks;
  return isObject(tasks) ? { generation: "v1", capabilities: tasks as never } : { generation: "none" };
}

/** The port, and what ext-tasks does not do itself: listening for a task's status notifications. */
export interface TaskPort extends ConnectedMcpSessionPort {
  /**
   * On 2026-07-28: asks the server for `notifications/tasks` of `taskId` on a
   * `subscriptions/listen` stream (they reach ext-tasks through
   * `onNotification`). Resolves with the stream when the server agreed to
   * send them for this task, else undefined (not offered, refused, or not
   * this protocol): polling alone follows the task then. Never rejects.
   */
  listenTask(taskId: string): Promise<RawSubscription | undefined>;
  close(): void;
}

export function taskPort(parts: TaskPortParts): TaskPort {
  const { client } = parts;
  const capabilities = taskCapabilitiesOf(client);
  const invalidated = new Set<(reason: unknown) => void>();
  let closed = false;
  const stopClose = parts.onClose(() => {
    closed = true;
    for (const listener of [...invalidated]) listener(new Error(`${parts.server}: connection closed`));
  });
  const framed = (request: Request): Request => {
    const params = request.params ?? {};
    const meta = isObject(params._meta) ? params._meta : {};
    const declared = parts.clientCapabilities as { extensions?: Record<string, unknown> };
    return {
      ...request,
      params: {
        ...params,
        _meta: {
          ...meta,
          [PROTOCOL_VERSION_META]: MODERN_REVISION,
          [CLIENT_INFO_META]: parts.clientInfo,
          [CLIENT_CAPABILITIES_META]: {
            ...declared,
            extensions: { ...declared.extensions, [TASKS_EXTENSION_ID]: {} },
          },
        },
      },
    };
  };
  return {
    endpointId: parts.server,
    taskCapabilities: capabilities,
    get invalidated() {
      return closed;
    },
    async dispatch(request, options = {}) {
      const { method, params } = request as Request;
      const timeout = options.context?.requestTimeoutMs ?? parts.requestTimeoutMs;
      // A `tools/call` is never abandoned early: a task created meanwhile must reach ext-tasks to be cancelled.
      const signal = method === "tools/call" ? undefined : options.signal;
      const raw = client.rawRequest;
      try {
        if (
          capabilities.generation === "v2" &&
          raw &&
          (method === "tools/call" || method.startsWith("tasks/"))
        ) {
          return asResponse(await raw(framed({ method, params }), { timeout, signal }));
        }
        const result = await client.request(method, params, { timeout, signal });
        return { kind: "result", result: result as Json };
      } catch (error) {
        const rpc = rpcError(error);
        if (rpc) return { kind: "error", error: rpc };
        throw new DispatchError(`${parts.server}: ${method} failed: ${describeError(error)}`, false, {
          cause: error,
        });
      }
    },
    onServerRequest: () => () => {},
    onNotification(listener) {
      return parts.notifications.on((n) => {
        if (n.kind === "task") listener({ jsonrpc: "2.0", method: n.method, params: n.params } as Json);
      });
    },
    async listenTask(taskId) {
      const listen = client.rawListen;
      if (capabilities.generation !== "v2" || !listen || closed) return undefined;
      const request = framed({
        method: "subscriptions/listen",
        params: { notifications: { taskIds: [taskId] } },
      });
      const stream = await listen(request.params ?? {}, { timeout: parts.requestTimeoutMs }).catch(
        () => undefined,
      );
      const honored = stream?.honored.taskIds;
      if (stream && Array.isArray(honored) && honored.includes(taskId)) return stream;
      await stream?.close();
      return undefined;
    },
    onInvalidated(listener) {
      invalidated.add(listener);
      return () => invalidated.delete(listener);
    },
    close() {
      stopClose();
      invalidated.clear();
    },
  };
}

function asResponse(response: RawResponse): JsonRpcResponse {
  return response as JsonRpcResponse;
}

/** The JSON-RPC error an SDK error carries (v1 `McpError`, v2 `ProtocolError`: numeric `code`). */
function rpcError(error: unknown): { code: number; message: string; data?: never } | undefined {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (typeof e?.code !== "number" || typeof e.message !== "string") return undefined;
  // Timeouts and closed connections are the SDK's own codes: failures of the exchange, not answers.
  if (e.code === -32001 || e.code === -32000) return undefined;
  return {
    code: e.code,
    message: stripCodePrefix(e.message),
    ...(e.data !== undefined ? { data: e.data as never } : {}),
  };
}

/** SDK errors prefix their message with `MCP error <code>: `; the error object says it already. */
function stripCodePrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, "");
}

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}
