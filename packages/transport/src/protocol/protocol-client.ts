/**
 * The few operations a `ServerConnection` needs from an SDK client, and the
 * few things the connect path needs from an SDK, so one connection class and
 * one connect path serve both SDK v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/client`, the 2026-07-28 revision).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import type { FetchLike } from "../http/http-shape-probe.js";
import type { CompletionRef, CompletionResult } from "../remote-types.js";
import type { AbortSource } from "../requests/request-deadline.js";
import type { CacheHints } from "./cache-hints.js";
import type { RawListen } from "./raw-listen.js";

/** `completion/complete` params as they go on the wire. */
export interface CompleteParams {
  ref: CompletionRef;
  argument: { name: string; value: string };
  context?: { arguments: Record<string, string> };
}

export type RequestOptions = {
  signal?: AbortSignal;
  timeout: number;
  /** The request's abort as our own request path follows it (no signal made); `signal` says the same. */
  abort?: AbortSource;
};
export type Page = { nextCursor?: string };

export interface ProtocolClient {
  /** Protocol revision in use, e.g. `2025-11-25` or `2026-07-28`. */
  protocolVersion(): string | undefined;
  /** The server's `serverInfo` from initialize: name and version, and its title and description when it gave them. */
  serverVersion(): { name: string; version: string; title?: string; description?: string } | undefined;
  instructions(): string | undefined;
  /** The capabilities the server declared, as the SDK holds them. */
  serverCapabilities(): Record<string, unknown> | undefined;
  ping(o: RequestOptions): Promise<unknown>;
  listTools(cursor: string | undefined, o: RequestOptions): Promise<Page & { tools: unknown[] }>;
  listResources(cursor: string | undefined, o: RequestOptions): Promise<Page & { resources: unknown[] }>;
  listResourceTemplates(
    cursor: string | undefined,
    o: RequestOptions,
  ): Promise<Page & { resourceTemplates: unknown[] }>;
  listPrompts(cursor: string | undefined, o: RequestOptions): Promise<Page & { prompts: unknown[] }>;
  /** The caching hints (`ttlMs`, `cacheScope`) of the lists made so far, as one (cache-hints.ts). */
  cacheHints(): CacheHints | undefined;
  readResource(uri: string, o: RequestOptions): Promise<unknown>;
  getPrompt(name: string, args: Record<string, string>, o: RequestOptions): Promise<unknown>;
  /** With a `progressToken`, the server may report progress under it (read off the transport). */
  callTool(
    name: string,
    args: Record<string, unknown>,
    o: RequestOptions,
    progressToken?: string,
  ): Promise<unknown>;
  complete(params: CompleteParams, o: RequestOptions): Promise<{ completion: CompletionResult }>;
  subscribeResource(uri: string, o: RequestOptions): Promise<unknown>;
  /** `skills/list` (SEP-2640), one page; entries unchecked (the host checks each one). */
  listSkills(cursor: string | undefined, o: RequestOptions): Promise<Page & { skills: unknown[] }>;
  /** `skills/get` (SEP-2640): the entry of the skill whose `SKILL.md` is at `uri`, unchecked. */
  getSkill(uri: string, o: RequestOptions): Promise<{ skill: unknown }>;
  /** Any request, its result unchecked (the task methods, whose shapes ext-tasks checks). */
  request(method: string, params: Record<string, unknown> | undefined, o: RequestOptions): Promise<unknown>;
  /**
   * On 2026-07-28 only: a request sent below the SDK, whose codec rejects task
   * shapes (`resultType: "task"`, `tasks/*`); the caller frames its `_meta`.
   */
  rawRequest?: RawRequest;
  /** On 2026-07-28 only: a `subscriptions/listen` stream opened below the SDK (raw-listen.ts); the caller frames `_meta`. */
  rawListen?: RawListen;
  /** Sends `notifications/roots/list_changed`. */
  notifyRootsChanged(): Promise<void>;
  /** Registers the one close handler. */
  onClose(handler: () => void): void;
  close(): Promise<void>;
  /** How an SDK error maps onto ours. */
  classify(error: unknown): "timeout" | "closed" | undefined;
}

/** A JSON-RPC answer as it came: a result, or an error object. */
export type RawResponse =
  | { kind: "result"; result: unknown }
  | { kind: "error"; error: { code: number; message: string; data?: unknown } };

export type RawRequest = (
  request: { method: string; params?: Record<string, unknown> },
  o: RequestOptions,
) => Promise<RawResponse>;

/** Options of an HTTP client transport, the same for both SDKs. */
export interface HttpTransportOptions {
  requestInit?: RequestInit;
  fetch?: FetchLike;
  /** An SDK OAuth provider; the v1 and v2 transports accept the same object. */
  authProvider?: unknown;
}

/** A Streamable HTTP client transport: a session that DELETE ends. */
export interface SessionTransport extends Transport {
  readonly sessionId: string | undefined;
  terminateSession(): Promise<void>;
}

/** What the shared connect path needs from one SDK. */
export interface SdkFlavor {
  /** A fresh client (capabilities and inbound handlers in place), connected over `transport`. */
  open(transport: Transport, o: { timeout: number; signal?: AbortSignal }): Promise<ProtocolClient>;
  streamableHttp(url: URL, options: HttpTransportOptions): SessionTransport;
  /** Legacy SSE, where this SDK path serves it; without it a rejected endpoint falls back to the caller. */
  sse?: (url: URL, options: HttpTransportOptions) => Transport;
}

/**
 * A JSON Schema validator for either SDK's client that accepts every result:
 * output schemas are checked by `SdkServerConnection`, for both SDKs alike
 * and for every page of tools.
 */
export const ACCEPT_ANY_OUTPUT = {
  getValidator<T>(): (input: unknown) => ValidatorResult<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A result schema that accepts any result: zod for SDK v1, a Standard Schema for v2 (zod is both). */
export const ANY_RESULT = z.unknown();

/** The validator result both SDKs declare (spelt out, so one object fits both). */
type ValidatorResult<T> =
  | { valid: true; data: T; errorMessage: undefined }
  | { valid: false; data: undefined; errorMessage: string };
