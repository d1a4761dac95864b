/**
 * The rules that let many MCP sessions share one server process. Pure
 * routing: it sees messages from sessions and from the server and decides
 * what goes where; it never touches a socket or a process.
 *
 * - initialize: the first session's goes to the server; later sessions get
 *   the cached result under their own id; `notifications/initialized` is
 *   forwarded once.
 * - Request ids are replaced by daemon ids (one counter per server), so ids
 *   of different sessions never meet; answers go back under the original id.
 *   `notifications/cancelled` is translated the same way, and so are
 *   progress tokens, so progress reaches only the session that asked.
 * - Server→client requests go to the one session with requests in flight;
 *   when none or several have, elicitation and sampling are refused with a
 *   JSON-RPC error (the daemon cannot tell whose they are), while `roots/list`
 *   goes to the longest-attached session (sessions that share a server
 *   declared the same roots: that is part of the share key). `ping` is
 *   answered by the daemon.
 * - `notifications/resources/updated` goes to the sessions subscribed to that
 *   URI, server cancellations to the session holding that request; every
 *   other notification to every session.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type RequestId = string | number;
type Json = Record<string, unknown>;

export interface MuxSession {
  readonly id: number;
  send(message: JSONRPCMessage): void;
}

interface SessionState {
  session: MuxSession;
  /** This session's requests at the server: its own id → daemon id. */
  inFlight: Map<RequestId, number>;
  subscriptions: Set<string>;
  /** Whether it left (answers still due to it are dropped). */
  gone: boolean;
}

interface Pending {
  /** Undefined for the daemon's own requests (their answers are dropped). */
  owner: SessionState | undefined;
  id: RequestId;
  method: string;
  /** The original progress token, when the request carried one (the daemon's token is the daemon id). */
  progressToken?: RequestId;
}

type InitState =
  | { phase: "none" }
  | { phase: "pending"; waiters: { owner: SessionState; id: RequestId; message: Json }[] }
  | { phase: "done"; result: unknown };

/** The JSON-RPC error code of the daemon's own refusals. */
export const ROUTING_ERROR = -32603;

export class Multiplexer {
  private readonly sessions = new Map<number, SessionState>();
  private readonly pending = new Map<number, Pending>();
  private readonly serverRequests = new Map<RequestId, SessionState>();
  private init: InitState = { phase: "none" };
  private initializedForwarded = false;
  private nextId = 1;

  constructor(
    private readonly toServer: (message: JSONRPCMessage) => void,
    private readonly note: (line: string) => void = () => {},
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  add(session: MuxSession): void {
    this.sessions.set(session.id, { session, inFlight: new Map(), subscriptions: new Set(), gone: false });
  }

  /** A session left: its requests are cancelled at the server, requests routed to it refused. */
  remove(sessionId: number): void {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    this.sessions.delete(sessionId);
    state.gone = true;
    for (const daemonId of state.inFlight.values()) {
      this.pending.delete(daemonId);
      this.notifyServer("notifications/cancelled", { requestId: daemonId, reason: "the session left" });
    }
    for (const [id, owner] of this.serverRequests) {
      if (owner !== state) continue;
      this.serverRequests.delete(id);
      this.toServer(errorAnswer(id, "the session this request was sent to has left"));
    }
    for (const uri of state.subscriptions) {
      if (!this.subscribed(uri)) this.requestServer("resources/unsubscribe", { uri });
    }
  }

  fromSession(sessionId: number, message: JSONRPCMessage): void {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    const m = message as Json;
    const method = typeof m.method === "string" ? m.method : undefined;
    const hasId = "id" in m && m.id !== undefined && m.id !== null;
    if (method && hasId) this.sessionRequest(state, m, method, m.id as RequestId);
    else if (method) this.sessionNotification(state, m, method);
    else if (hasId) this.sessionAnswer(state, m);
  }

  fromServer(message: JSONRPCMessage): void {
    const m = message as Json;
    const method = typeof m.method === "string" ? m.method : undefined;
    const hasId = "id" in m && m.id !== undefined && m.id !== null;
    if (method && hasId) this.serverRequest(m, method, m.id as RequestId);
    else if (method) this.serverNotification(m, method);
    else if (hasId) this.serverAnswer(m, m.id as RequestId);
  }

  /** Fails a request whose answer could not be passed on (e.g. too large); false when it is not pending. */
  failRequest(daemonId: number, message: string): boolean {
    const entry = this.pending.get(daemonId);
    if (!entry?.owner || entry.method === "initialize") return false;
    this.pending.delete(daemonId);
    entry.owner.inFlight.delete(entry.id);
    if (!entry.owner.gone) entry.owner.session.send(errorAnswer(entry.id, message));
    return true;
  }

  private sessionRequest(state: SessionState, m: Json, method: string, id: RequestId): void {
    if (method === "initialize") {
      this.initialize(state, id, m);
      return;
    }
    const params = (m.params ?? undefined) as Json | undefined;
    const uri = typeof params?.uri === "string" ? params.uri : undefined;
    if (method === "resources/subscribe" && uri !== undefined) {
      const already = this.subscribed(uri);
      state.subscriptions.add(uri);
      if (already) {
        state.session.send(answer(id, {}));
        return;
      }
    }
    if (method === "resources/unsubscribe" && uri !== undefined) {
      state.subscriptions.delete(uri);
      if (this.subscribed(uri)) {
        state.session.send(answer(id, {}));
        return;
      }
    }
    const daemonId = this.nextId++;
    const entry: Pending = { owner: state, id, method };
    let outParams = params;
    const meta = params?._meta as Json | undefined;
    if (meta && (typeof meta.progressToken === "string" || typeof meta.progressToken === "number")) {
      entry.progressToken = meta.progressToken;
      outParams = { ...params, _meta: { ...meta, progressToken: daemonId } };
    }
    this.pending.set(daemonId, entry);
    state.inFlight.set(id, daemonId);
    this.toServer(msg({ ...m, id: daemonId, ...(outParams ? { params: outParams } : {}) }));
  }

  private initialize(state: SessionState, id: RequestId, m: Json): void {
    const init = this.init;
    if (init.phase === "done") {
      state.session.send(answer(id, init.result));
      return;
    }
    if (init.phase === "pending") {
      init.waiters.push({ owner: state, id, message: m });
      return;
    }
    this.init = { phase: "pending", waiters: [] };
    const daemonId = this.nextId++;
    this.pending.set(daemonId, { owner: state, id, method: "initialize" });
    this.toServer(msg({ ...m, id: daemonId }));
  }

  private sessionNotification(state: SessionState, m: Json, method: string): void {
    if (method === "notifications/initialized") {
      if (this.initializedForwarded) return;
      this.initializedForwarded = true;
    } else if (method === "notifications/cancelled") {
      const params = (m.params ?? {}) as Json;
      const daemonId = state.inFlight.get(params.requestId as RequestId);
      if (daemonId === undefined) return;
      this.toServer(msg({ ...m, params: { ...params, requestId: daemonId } }));
      return;
    }
    this.toServer(msg(m));
  }

  /** A session answers a server→client request: only the session it was sent to may. */
  private sessionAnswer(state: SessionState, m: Json): void {
    const id = m.id as RequestId;
    if (this.serverRequests.get(id) !== state) {
      this.note(`session ${state.session.id} answered a server request that was not sent to it; dropped`);
      return;
    }
    this.serverRequests.delete(id);
    this.toServer(msg(m));
  }

  private serverAnswer(m: Json, daemonId: RequestId): void {
    const entry = typeof daemonId === "number" ? this.pending.get(daemonId) : undefined;
    if (!entry) return;
    this.pending.delete(daemonId as number);
    if (entry.method === "initialize") {
      this.initialized(entry, m);
      return;
    }
    const owner = entry.owner;
    if (!owner || owner.gone) return;
    owner.inFlight.delete(entry.id);
    owner.session.send(msg({ ...m, id: entry.id }));
  }

  /** The server answered the first initialize: cache a result for every later session, or pass an error on. */
  private initialized(entry: Pending, m: Json): void {
    const waiters = this.init.phase === "pending" ? this.init.waiters : [];
    if ("result" in m) {
      this.init = { phase: "done", result: m.result };
      if (entry.owner && !entry.owner.gone) entry.owner.session.send(answer(entry.id, m.result));
      for (const w of waiters) if (!w.owner.gone) w.owner.session.send(answer(w.id, m.result));
      return;
    }
    if (entry.owner && !entry.owner.gone) entry.owner.session.send(msg({ ...m, id: entry.id }));
    // The next waiter tries its own initialize (the first one's may have asked for what the server refused).
    this.init = { phase: "none" };
    const live = waiters.filter((w) => !w.owner.gone);
    const next = live.shift();
    if (!next) return;
    this.initialize(next.owner, next.id, next.message);
    const after = this.init as InitState;
    if (after.phase === "pending") after.waiters.push(...live);
  }

  private serverRequest(m: Json, method: string, id: RequestId): void {
    if (method === "ping") {
      this.toServer(answer(id, {}));
      return;
    }
    const busy = [...this.sessions.values()].filter((s) => s.inFlight.size > 0);
    let target = busy.length === 1 ? busy[0] : undefined;
    if (!target && method === "roots/list") target = this.sessions.values().next().value;
    if (!target) {
      const why =
        busy.length === 0
          ? "no session has a request in flight to this server"
          : `${busy.length} sessions have requests in flight to this server`;
      this.note(`refused a server ${method} request: ${why}`);
      this.toServer(errorAnswer(id, `shared server: cannot tell which session ${method} is for (${why})`));
      return;
    }
    this.serverRequests.set(id, target);
    target.session.send(msg(m));
  }

  private serverNotification(m: Json, method: string): void {
    const params = (m.params ?? {}) as Json;
    if (method === "notifications/progress") {
      const entry =
        typeof params.progressToken === "number" ? this.pending.get(params.progressToken) : undefined;
      if (!entry?.owner || entry.owner.gone || entry.progressToken === undefined) return;
      entry.owner.session.send(msg({ ...m, params: { ...params, progressToken: entry.progressToken } }));
      return;
    }
    if (method === "notifications/cancelled") {
      const owner = this.serverRequests.get(params.requestId as RequestId);
      if (!owner) return;
      this.serverRequests.delete(params.requestId as RequestId);
      owner.session.send(msg(m));
      return;
    }
    if (method === "notifications/resources/updated" && typeof params.uri === "string") {
      for (const s of this.sessions.values()) if (s.subscriptions.has(params.uri)) s.session.send(msg(m));
      return;
    }
    for (const s of this.sessions.values()) s.session.send(msg(m));
  }

  private subscribed(uri: string): boolean {
    for (const s of this.sessions.values()) if (s.subscriptions.has(uri)) return true;
    return false;
  }

  private notifyServer(method: string, params: Json): void {
    this.toServer(msg({ jsonrpc: "2.0", method, params }));
  }

  /** A request of the daemon's own; its answer is dropped. */
  private requestServer(method: string, params: Json): void {
    const daemonId = this.nextId++;
    this.pending.set(daemonId, { owner: undefined, id: daemonId, method });
    this.toServer(msg({ jsonrpc: "2.0", id: daemonId, method, params }));
  }
}

/** A message built here from one read off the wire (its shape was the sender's to get right). */
function msg(value: Json): JSONRPCMessage {
  return value as unknown as JSONRPCMessage;
}

function answer(id: RequestId, result: unknown): JSONRPCMessage {
  return msg({ jsonrpc: "2.0", id, result });
}

function errorAnswer(id: RequestId, message: string): JSONRPCMessage {
  return msg({ jsonrpc: "2.0", id, error: { code: ROUTING_ERROR, message } });
}
