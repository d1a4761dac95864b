/**
 * A Streamable HTTP session that survives its server restarting. A request
 * that carried `Mcp-Session-Id` and is answered 404 (the spec's "session
 * expired"), or 400 saying the session is unknown or not initialized (what
 * many servers send instead), opens a new session — once, shared by every
 * request that hit the loss at the same time — and is sent again on it. That
 * retry is safe even for `tools/call`: a server that lost the session never
 * ran the request. The lost session is closed only once the requests still
 * in flight on it have their answers (a 404 arriving after the renewal is
 * retried too; closing at once failed them as "connection closed"). Listeners
 * hear `renewing`, then `renewed` or `failed`.
 */
import { describeError } from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
import { httpStatus } from "../http/http-status.js";
import type { ProtocolClient, SessionTransport } from "./protocol-client.js";

export type SessionRenewalPhase = "renewing" | "renewed" | "failed";
export type SessionRenewalListener = (phase: SessionRenewalPhase) => void;

export interface OpenSession {
  client: ProtocolClient;
  transport: SessionTransport;
}

/** The methods that send a request, which a lost session is renewed for. */
const REQUESTS = [
  "ping",
  "listTools",
  "listResources",
  "listResourceTemplates",
  "listPrompts",
  "readResource",
  "getPrompt",
  "callTool",
  "complete",
  "subscribeResource",
  "listSkills",
  "getSkill",
  "request",
] as const satisfies readonly (keyof ProtocolClient)[];

const UNKNOWN_SESSION = /session/i;
const SESSION_GONE = /not found|unknown|no valid|invalid|expired|terminated|not initiali[sz]ed/i;

/** Whether `error` says the server no longer knows the session the request carried. */
export function isSessionLost(error: unknown): boolean {
  const status = httpStatus(error);
  if (status === 404) return true;
  if (status !== 400) return false;
  const text = `${describeError(error)} ${String((error as { data?: { text?: unknown } }).data?.text ?? "")}`;
  return (UNKNOWN_SESSION.test(text) && SESSION_GONE.test(text)) || /server not initiali[sz]ed/i.test(text);
}

export class RenewableSession {
  private current: OpenSession;
  /** The requests in flight on each session, settled or not. */
  private readonly inFlight = new WeakMap<OpenSession, Set<Promise<void>>>();
  /** Sessions replaced by a renewal and not closed yet: their last requests are still in flight. */
  private readonly retiring = new Set<OpenSession>();
  private renewing: Promise<void> | undefined;
  private closeHandler: (() => void) | undefined;
  private closed = false;
  private readonly listeners = new Set<SessionRenewalListener>();
  /** The `ProtocolClient` the connection uses: always the current session's, renewed on loss. */
  readonly client: ProtocolClient;

  constructor(
    private readonly server: string,
    first: OpenSession,
    private readonly open: () => Promise<OpenSession>,
  ) {
    this.current = first;
    this.watchClose(first);
    const client = { ...first.client } as ProtocolClient;
    for (const method of REQUESTS) {
      (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) =>
        this.send((c) => (c[method] as (...a: unknown[]) => Promise<unknown>)(...args));
    }
    Object.assign(client, {
      protocolVersion: () => this.current.client.protocolVersion(),
      serverVersion: () => this.current.client.serverVersion(),
      instructions: () => this.current.client.instructions(),
      serverCapabilities: () => this.current.client.serverCapabilities(),
      notifyRootsChanged: () => this.current.client.notifyRootsChanged(),
      classify: (error: unknown) => this.current.client.classify(error),
      onClose: (handler: () => void) => {
        this.closeHandler = handler;
      },
      close: () => this.close(),
    } satisfies Partial<ProtocolClient>);
    this.client = client;
  }

  onRenewal(listener: SessionRenewalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends the current session with DELETE (before closing). */
  async terminate(): Promise<void> {
    if (this.current.transport.sessionId) await this.current.transport.terminateSession();
  }

  private async close(): Promise<void> {
    this.closed = true;
    await this.renewing?.catch(() => {});
    await this.current.client.close();
    // Ending the connection ends what a replaced session still had in flight, too.
    await Promise.all([...this.retiring].map((lost) => lost.client.close().catch(() => {})));
  }

  private async send<T>(run: (client: ProtocolClient) => Promise<T>): Promise<T> {
    const used = this.current;
    const carriedSession = used.transport.sessionId !== undefined;
    try {
      return await this.track(used, run(used.client));
    } catch (error) {
      if (!carriedSession || this.closed || !isSessionLost(error)) throw error;
      await this.renew(used, error);
      const next = this.current;
      return this.track(next, run(next.client));
    }
  }

  /** Replaces `lost` with a new session, once however many requests ask. */
  private renew(lost: OpenSession, reason: unknown): Promise<void> {
    if (this.current !== lost) return Promise.resolve();
    this.renewing ??= this.replace(lost, reason).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async replace(lost: OpenSession, reason: unknown): Promise<void> {
    this.emit("renewing");
    let next: OpenSession;
    try {
      next = await this.open();
    } catch (error) {
      this.emit("failed");
      await lost.client.close().catch(() => {});
      // Nothing left to talk to: the connection ends, and its owner reconnects on next use.
      this.closeHandler?.();
      throw new TransportError(
        "closed",
        this.server,
        `${this.server}: the server no longer knows this session (HTTP ${httpStatus(reason)}; it may have restarted) and a new session could not be opened: ${describeError(error)}`,
        { cause: error },
      );
    }
    if (this.closed) {
      await next.client.close().catch(() => {});
      return;
    }
    this.current = next;
    this.watchClose(next);
    this.retire(lost);
    this.emit("renewed");
  }

  /** Notes `request` as in flight on `session` until it settles. */
  private track<T>(session: OpenSession, request: Promise<T>): Promise<T> {
    const pending = this.inFlight.get(session) ?? new Set<Promise<void>>();
    this.inFlight.set(session, pending);
    const settled = request.then(
      () => {},
      () => {},
    );
    pending.add(settled);
    void settled.then(() => pending.delete(settled));
    return request;
  }

  /** Closes a replaced session once its requests in flight have settled (each with its own timeout), or at `close`. */
  private retire(lost: OpenSession): void {
    this.retiring.add(lost);
    void (async () => {
      const pending = this.inFlight.get(lost);
      while (pending?.size) await Promise.race(pending);
      this.retiring.delete(lost);
      await lost.client.close().catch(() => {});
    })();
  }

  private watchClose(session: OpenSession): void {
    session.client.onClose(() => {
      if (session === this.current) this.closeHandler?.();
    });
  }

  private emit(phase: SessionRenewalPhase): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(phase);
      } catch {
        // a listener's bug must not break the session
      }
    }
  }
}
