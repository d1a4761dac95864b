/**
 * When a server may ask the user something: only while one of our calls to
 * it (`tools/call`, `resources/read`, `prompts/get`) is in flight, the
 * protocol's own rule that a server's requests belong to a client request.
 * Outside a call an elicitation or sampling request is refused at once, with
 * no dialog, so a server cannot pop questions up at any moment of the
 * session. Within calls, each call in flight allows `perCall` such requests;
 * the allowance lapses when the last call ends. `roots/list` is not
 * gated: a server may ask for the roots at any time.
 */

/** Default of `ClientHandlers.requestsPerCall`. */
export const DEFAULT_REQUESTS_PER_CALL = 10;

/** JSON-RPC "Invalid Request": what the server gets for a request it may not make now. */
export const INVALID_REQUEST = -32600;

/** A server request refused before any handler ran; its `code` and message go to the server as is. */
export class ServerRequestRefused extends Error {
  readonly code = INVALID_REQUEST;

  constructor(message: string) {
    super(message);
    this.name = "ServerRequestRefused";
  }
}

const ENDED = AbortSignal.abort(new Error("no call is in flight"));
/** One reason for every lapse: an Error per call would cost a stack trace on the hot path. */
const LAPSED = new Error("the calls in flight have ended");

export class CallWindow {
  private calls = 0;
  private allowance = 0;
  /** Made when a handler first asks for `signal` during calls: most calls never need one. */
  private ended: AbortController | undefined;
  private closed = false;

  constructor(private readonly perCall: number = DEFAULT_REQUESTS_PER_CALL) {}

  /** Aborted when no call is in flight any more (or the connection closed); already aborted between calls. */
  get signal(): AbortSignal {
    if (this.calls === 0) return ENDED;
    this.ended ??= new AbortController();
    return this.ended.signal;
  }

  /** A call started; the returned function ends it (once). */
  enter(): () => void {
    this.calls++;
    this.allowance += this.perCall;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.calls === 0) this.lapse();
    };
  }

  /** Throws `ServerRequestRefused` unless `method` may be answered now, and counts it. */
  admit(method: string): void {
    if (this.closed || this.calls === 0) {
      throw new ServerRequestRefused(
        `${method} is answered only while a call to this server (tools/call, resources/read, prompts/get) is in flight, and none is`,
      );
    }
    if (this.allowance <= 0) {
      throw new ServerRequestRefused(
        `${method} refused: at most ${this.perCall} elicitation and sampling requests are answered per call in flight`,
      );
    }
    this.allowance--;
  }

  /** The connection ended: nothing more is answered. */
  close(): void {
    this.closed = true;
    this.lapse();
  }

  private lapse(): void {
    this.allowance = 0;
    this.ended?.abort(LAPSED);
    this.ended = undefined;
  }
}
