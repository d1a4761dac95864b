/**
 * The control handshake on a daemon connection: one JSON line from the
 * client (the hello), one JSON line back. After an `attach` reply the
 * connection carries plain newline-delimited MCP JSON-RPC (see README "Wire").
 * Which variables `spec.env` holds is the client's choice (`sharedServerEnv`
 * since issue 36, the whole session environment before): the shape is still
 * version 1, so daemons and sessions of either build work together.
 */
import { DaemonError } from "./errors.js";
import type { DaemonStatus, SharedAttachment, SharedSpawnSpec } from "./types.js";

/** The hello's version marker: `{"pi-mcp-daemon": 1, ...}`. */
export const WIRE_VERSION = 1;

/** The notification (daemon → client, opt-in) that carries the server's session count. */
export const SESSIONS_NOTIFICATION = "notifications/pi-mcp-daemon/sessions";

/** The notification (daemon → client, opt-in) sent just before the daemon ends a session: `{ reason }`. */
export const ENDED_NOTIFICATION = "notifications/pi-mcp-daemon/ended";

interface HelloBase {
  "pi-mcp-daemon": typeof WIRE_VERSION;
  /** The contents of the daemon's 0600 token file. */
  token: string;
}

export interface AttachHello extends HelloBase {
  op: "attach";
  name: string;
  spec: SharedSpawnSpec;
  clientKey: string;
  idleTimeoutMs: number;
  /** Ask for `SESSIONS_NOTIFICATION` whenever the count changes. */
  sessionUpdates?: boolean;
}

export interface StatusHello extends HelloBase {
  op: "status";
}

export interface StopHello extends HelloBase {
  op: "stop";
}

export type Hello = AttachHello | StatusHello | StopHello;

export type HelloReply =
  | { ok: true; attach: SharedAttachment & { sessions: number } }
  | { ok: true; status: DaemonStatus }
  | { ok: true; stopping: true }
  | { ok: false; code: string; error: string };

/**
 * Reads a hello line; throws a `bad_hello` `DaemonError` naming what is wrong
 * (never echoing values, which may be secrets).
 */
export function parseHello(line: string): Hello {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw badHello("the first line is not JSON (expected the pi-mcp-daemon hello)");
  }
  if (typeof value !== "object" || value === null) throw badHello("the hello is not a JSON object");
  const hello = value as Record<string, unknown>;
  if (hello["pi-mcp-daemon"] !== WIRE_VERSION) {
    throw badHello(`the hello has no "pi-mcp-daemon": ${WIRE_VERSION} (a client of another version?)`);
  }
  if (typeof hello.token !== "string") throw badHello('the hello has no "token"');
  if (hello.op === "status" || hello.op === "stop") return hello as unknown as Hello;
  if (hello.op !== "attach") throw badHello('the hello\'s "op" is not attach, status or stop');
  if (typeof hello.name !== "string") throw badHello('the attach hello has no "name"');
  if (typeof hello.clientKey !== "string") throw badHello('the attach hello has no "clientKey"');
  if (typeof hello.idleTimeoutMs !== "number" || !(hello.idleTimeoutMs >= 0)) {
    throw badHello('the attach hello\'s "idleTimeoutMs" is not a non-negative number');
  }
  checkSpec(hello.spec);
  return hello as unknown as AttachHello;
}

function checkSpec(spec: unknown): asserts spec is SharedSpawnSpec {
  if (typeof spec !== "object" || spec === null) throw badHello('the attach hello has no "spec" object');
  const s = spec as Record<string, unknown>;
  if (typeof s.command !== "string" || s.command === "")
    throw badHello('"spec.command" is not a non-empty string');
  if (!Array.isArray(s.args) || !s.args.every((a) => typeof a === "string")) {
    throw badHello('"spec.args" is not an array of strings');
  }
  if (s.cwd !== undefined && typeof s.cwd !== "string") throw badHello('"spec.cwd" is not a string');
  if (typeof s.env !== "object" || s.env === null || Array.isArray(s.env)) {
    throw badHello('"spec.env" is not an object of strings');
  }
  for (const [name, v] of Object.entries(s.env)) {
    if (typeof v !== "string") throw badHello(`"spec.env.${name}" is not a string`);
  }
}

function badHello(message: string): DaemonError {
  return new DaemonError("bad_hello", message);
}
