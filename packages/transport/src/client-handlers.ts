/**
 * The inbound seam: what a server may ask of the client (elicitation,
 * sampling, roots), answered by handlers given at connect. Capabilities are
 * declared from which handlers exist, the same way for both SDKs, so a server
 * never offers features the client cannot serve.
 */
import {
  type CreateMessageParams,
  type CreateMessageResult,
  describeError,
  type ElicitRequestParams,
  type ElicitResult,
  type Root,
} from "@pi-mcp-adapter/core";

/** What a handler learns about the request it answers. */
export interface HandlerContext {
  /** The server asking. */
  server: string;
  /** Aborted when the server cancels the request or the connection ends. */
  signal: AbortSignal;
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
 */
export function registerClientHandlers(
  server: string,
  handlers: ClientHandlers | undefined,
  register: RegisterRequestHandler,
): void {
  const { elicitation, sampling, roots } = handlers ?? {};
  if (elicitation) {
    register("elicitation/create", (params, signal) =>
      runHandler("elicitation/create", () => elicitation(params as ElicitRequestParams, { server, signal })),
    );
  }
  if (sampling) {
    register("sampling/createMessage", (params, signal) =>
      runHandler("sampling/createMessage", () => sampling(params as CreateMessageParams, { server, signal })),
    );
  }
  if (roots) {
    register("roots/list", async (_params, signal) => ({
      roots: await runHandler("roots/list", () => roots({ server, signal })),
    }));
  }
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
    const code = (error as { code?: unknown } | undefined)?.code;
    const failure = new Error(`client handler for ${method} failed: ${describeError(error)}`);
    Object.assign(failure, { code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR });
    throw failure;
  }
}

const INTERNAL_ERROR = -32603;
