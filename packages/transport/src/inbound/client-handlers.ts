/**
 * The inbound seam: what a server may ask of the client (elicitation,
 * sampling, roots), answered by handlers given at connect. Capabilities are
 * declared from which handlers exist, the same way for both SDKs, so a server
 * never offers features the client cannot serve. `guardClientHandlers` adds
 * the rules of a live connection: when a server may ask (call-window.ts) and
 * that time spent answering never counts against its requests' timeouts
 * (request-deadline.ts).
 */
import {
  type CreateMessageParams,
  type CreateMessageResult,
  describeError,
  type ElicitRequestParams,
  type ElicitResult,
  type Root,
} from "@pi-mcp-adapter/core";
import type { RequestDeadlines } from "../requests/request-deadline.js";
import { type CallWindow, ServerRequestRefused } from "./call-window.js";
import type { NotificationListener, NotificationRelay } from "./server-notification.js";

/** What a handler learns about the request it answers. */
export interface HandlerContext {
  /** The server asking. */
  server: string;
  /** Aborted when the server cancels the request or the connection ends. */
  signal: AbortSignal;
  /**
   * Aborted when no call to this server is in flight any more (the calls
   * this request came during have ended) or the connection ends; already
   * aborted for a `roots/list` asked between calls.
   */
  callEnded: AbortSignal;
  /**
   * Keeps this server's request timeouts paused after the handler has
   * answered, until the returned function is called (e.g. while the user
   * completes a URL elicitation in the browser). While an elicitation or
   * sampling handler runs they are paused anyway.
   */
  holdTimeouts(): () => void;
  /** The server's notifications (e.g. `elicitation/complete`); returns the unsubscribe function. */
  onNotification(listener: NotificationListener): () => void;
}

export interface ClientHandlers {
  /** Answers `elicitation/create` (a form, or in URL mode a page for the user to visit). */
  elicitation?: (params: ElicitRequestParams, context: HandlerContext) => Promise<ElicitResult>;
  /** Elicitation modes to declare with an `elicitation` handler. Default: `["form"]`. */
  elicitationModes?: readonly ("form" | "url")[];
  /** Answers `sampling/createMessage` with a completion from the client's model. */
  sampling?: (params: CreateMessageParams, context: HandlerContext) => Promise<CreateMessageResult>;
  /** Answers `roots/list`. Tell servers the list changed with `ServerConnection.notifyRootsChanged()`. */
  roots?: (context: HandlerContext) => Promise<Root[]>;
  /**
   * Elicitation and sampling requests answered per call in flight (default
   * 10); more are refused without reaching the handler.
   */
  requestsPerCall?: number;
}

/** The `capabilities` a client declares in `initialize`, shaped for both SDKs. */
export interface DeclaredCapabilities {
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> };
  sampling?: Record<string, never>;
  roots?: { listChanged: boolean };
}

/** One rule for both SDKs: a capability is declared exactly when its handler exists. */
export function clientCapabilities(handlers: ClientHandlers | undefined): DeclaredCapabilities {
  const capabilities: DeclaredCapabilities = {};
  if (handlers?.elicitation) {
    const modes = handlers.elicitationModes ?? ["form"];
    capabilities.elicitation = {
      ...(modes.includes("form") ? { form: {} } : {}),
      ...(modes.includes("url") ? { url: {} } : {}),
    };
  }
  if (handlers?.sampling) capabilities.sampling = {};
  if (handlers?.roots) capabilities.roots = { listChanged: true };
  return capabilities;
}

/** A server→client request method a handler answers. */
export type ClientRequestMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** How one SDK's client registers an answer: `handle` gets the request's params and abort signal. */
export type RegisterRequestHandler = (
  method: ClientRequestMethod,
  handle: (params: unknown, signal: AbortSignal) => Promise<unknown>,
) => void;

/**
 * Registers an answer for each handler given (the ones the declared
 * capabilities promise), through one SDK's `register`, for server `server`.
 * The context has no call window, pause or notifications of its own:
 * `guardClientHandlers` (which `connectServer` applies) fills them in.
 */
export function registerClientHandlers(
  server: string,
  handlers: ClientHandlers | undefined,
  register: RegisterRequestHandler,
): void {
  const { elicitation, sampling, roots } = handlers ?? {};
  const context = (signal: AbortSignal) => unguardedContext(server, signal);
  if (elicitation) {
    register("elicitation/create", (params, signal) =>
      runHandler("elicitation/create", () => elicitation(params as ElicitRequestParams, context(signal))),
    );
  }
  if (sampling) {
    register("sampling/createMessage", (params, signal) =>
      runHandler("sampling/createMessage", () => sampling(params as CreateMessageParams, context(signal))),
    );
  }
  if (roots) {
    register("roots/list", async (_params, signal) => ({
      roots: await runHandler("roots/list", () => roots(context(signal))),
    }));
  }
}

const UNGUARDED: Omit<HandlerContext, "server" | "signal"> = {
  callEnded: new AbortController().signal,
  holdTimeouts: () => () => {},
  onNotification: () => () => {},
};

/** A handler's context as a request arrives: the guarded handlers fill in the call window, pause and notifications. */
export function unguardedContext(server: string, signal: AbortSignal): HandlerContext {
  return { server, signal, ...UNGUARDED };
}

/** What a live connection knows about its requests in flight, for the handlers it answers with. */
export interface HandlerGuard {
  window: CallWindow;
  deadlines: RequestDeadlines;
  notifications: NotificationRelay;
}

/**
 * The handlers of one connection, under its rules: elicitation and sampling
 * are answered only within a call and up to the per-call allowance (else the
 * server gets a JSON-RPC error and no handler runs), and the connection's
 * request timeouts are paused while they run (the user or the model is at
 * work). Roots are answered at any time. Capabilities are unchanged.
 */
export function guardClientHandlers(
  handlers: ClientHandlers | undefined,
  guard: HandlerGuard,
): ClientHandlers | undefined {
  if (!handlers) return undefined;
  const guarded = (context: HandlerContext): HandlerContext => ({
    ...context,
    callEnded: guard.window.signal,
    holdTimeouts: () => guard.deadlines.pause(),
    onNotification: (listener) => guard.notifications.on(listener),
  });
  const asking =
    <P, R>(method: string, handle: (params: P, context: HandlerContext) => Promise<R>) =>
    async (params: P, context: HandlerContext): Promise<R> => {
      guard.window.admit(method);
      const release = guard.deadlines.pause();
      try {
        return await handle(params, guarded(context));
      } finally {
        release();
      }
    };
  const { elicitation, sampling, roots } = handlers;
  return {
    ...handlers,
    ...(elicitation ? { elicitation: asking("elicitation/create", elicitation) } : {}),
    ...(sampling ? { sampling: asking("sampling/createMessage", sampling) } : {}),
    ...(roots ? { roots: (context: HandlerContext) => roots(guarded(context)) } : {}),
  };
}

/**
 * Runs a handler for a server's request. A failing handler becomes a JSON-RPC
 * error to the server (the SDKs turn a thrown error into one); the connection
 * carries on. A numeric `code` the handler chose is kept, anything else is an
 * internal error whose message names the method.
 */
export async function runHandler<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ServerRequestRefused) throw error;
    const code = (error as { code?: unknown } | undefined)?.code;
    const failure = new Error(`client handler for ${method} failed: ${describeError(error)}`);
    Object.assign(failure, { code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR });
    throw failure;
  }
}

const INTERNAL_ERROR = -32603;
