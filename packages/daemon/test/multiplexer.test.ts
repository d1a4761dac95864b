/**
 * The multiplexer's rules that server-everything does not exercise on its
 * own (roots when no call is in flight, ping, a session leaving mid-call, a
 * failed initialize). The multiplexer is pure routing, so these drive the
 * real class with the messages a server and sessions would send.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { Multiplexer, ROUTING_ERROR } from "../src/daemon/multiplexer.js";

function setup(sessionCount: number) {
  const toServer: JSONRPCMessage[] = [];
  const mux = new Multiplexer((m) => void toServer.push(m));
  const inbox: JSONRPCMessage[][] = [];
  for (let id = 1; id <= sessionCount; id++) {
    const box: JSONRPCMessage[] = [];
    inbox.push(box);
    mux.add({ id, send: (m) => void box.push(m) });
  }
  return { mux, toServer, inbox };
}

const request = (id: number | string, method: string, params: Record<string, unknown> = {}) =>
  ({ jsonrpc: "2.0", id, method, params }) as JSONRPCMessage;

describe("Multiplexer", () => {
  it("sends roots/list to the longest-attached session when no call is in flight, and answers ping itself", () => {
    const { mux, toServer, inbox } = setup(2);
    mux.fromServer(request("s1", "roots/list"));
    expect(inbox[0]).toEqual([request("s1", "roots/list")]);
    expect(inbox[1]).toEqual([]);
    // Only the session it was sent to may answer it.
    mux.fromSession(2, { jsonrpc: "2.0", id: "s1", result: { roots: [] } } as JSONRPCMessage);
    expect(toServer).toEqual([]);
    mux.fromSession(1, { jsonrpc: "2.0", id: "s1", result: { roots: [] } } as JSONRPCMessage);
    expect(toServer).toEqual([{ jsonrpc: "2.0", id: "s1", result: { roots: [] } }]);
    mux.fromServer(request("s2", "ping"));
    expect(toServer.at(-1)).toEqual({ jsonrpc: "2.0", id: "s2", result: {} });
  });

  it("refuses sampling when no session has a call in flight", () => {
    const { mux, toServer, inbox } = setup(2);
    mux.fromServer(request(7, "sampling/createMessage"));
    expect(inbox.flat()).toEqual([]);
    expect(toServer[0]).toMatchObject({ id: 7, error: { code: ROUTING_ERROR } });
  });

  it("cancels a leaving session's calls at the server and refuses the server's requests waiting on it", () => {
    const { mux, toServer, inbox } = setup(2);
    mux.fromSession(1, request(0, "tools/call", { name: "slow" }));
    const daemonId = (toServer[0] as { id: number }).id;
    mux.fromServer(request("e1", "elicitation/create"));
    expect(inbox[0]).toHaveLength(1);
    mux.remove(1);
    expect(toServer).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: daemonId, reason: "the session left" },
    });
    expect(toServer).toContainEqual(expect.objectContaining({ id: "e1", error: expect.anything() }));
    // A late answer to the cancelled call reaches no one.
    mux.fromServer({ jsonrpc: "2.0", id: daemonId, result: {} } as JSONRPCMessage);
    expect(inbox[1]).toEqual([]);
  });

  it("lets the next session try its own initialize when the first one's fails", () => {
    const { mux, toServer, inbox } = setup(2);
    mux.fromSession(1, request(0, "initialize", { protocolVersion: "2099-01-01" }));
    mux.fromSession(2, request(0, "initialize", { protocolVersion: "2025-11-25" }));
    expect(toServer).toHaveLength(1);
    const first = (toServer[0] as { id: number }).id;
    mux.fromServer({
      jsonrpc: "2.0",
      id: first,
      error: { code: -32602, message: "unsupported" },
    } as JSONRPCMessage);
    expect(inbox[0]).toEqual([{ jsonrpc: "2.0", id: 0, error: { code: -32602, message: "unsupported" } }]);
    expect(toServer).toHaveLength(2);
    expect(toServer[1]).toMatchObject({ method: "initialize", params: { protocolVersion: "2025-11-25" } });
    const second = (toServer[1] as { id: number }).id;
    mux.fromServer({
      jsonrpc: "2.0",
      id: second,
      result: { protocolVersion: "2025-11-25" },
    } as JSONRPCMessage);
    expect(inbox[1]).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25" } }]);
  });
});
