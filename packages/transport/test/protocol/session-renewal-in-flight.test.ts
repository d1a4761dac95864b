/**
 * A request still in flight on a lost session when another request's
 * renewal has already replaced it: its own "session lost" answer (arriving
 * late, as on a loaded machine) is retried on the new session, because the
 * lost session is closed only once its requests have settled. Closing it at
 * once failed such a request as "connection closed" (seen in the
 * server-everything test under load). Hand-made sessions (not a server):
 * the order of the answers is the point, and only this can fix it.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import type { ProtocolClient } from "../../src/protocol/protocol-client.js";
import { type OpenSession, RenewableSession } from "../../src/protocol/session-renewal.js";

/** A session whose `ping`s wait until the test answers them; `close` fails what is still waiting. */
function fakeSession(id: string) {
  const waiting: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  let onClose: (() => void) | undefined;
  const state = { closed: false, closedWith: 0 };
  const client = {
    ping: () => new Promise((resolve, reject) => waiting.push({ resolve, reject })),
    onClose: (handler: () => void) => {
      onClose = handler;
    },
    close: async () => {
      if (state.closed) return;
      state.closed = true;
      state.closedWith = waiting.length;
      for (const w of waiting.splice(0)) w.reject(new Error("MCP error -32000: Connection closed"));
      onClose?.();
    },
  } as unknown as ProtocolClient;
  const session: OpenSession = {
    client,
    transport: { sessionId: id, terminateSession: async () => {} } as unknown as OpenSession["transport"],
  };
  return { session, waiting, state };
}

const OPTIONS = { timeout: 60_000 };
const lost = () => new StreamableHTTPError(404, "Error POSTing to endpoint: Session not found");

describe("a session renewed while another request is still in flight on the lost one", () => {
  it("retries that request on the new session when its own 404 comes late, and closes the lost one after", async () => {
    const a = fakeSession("a");
    const b = fakeSession("b");
    const phases: string[] = [];
    const renewable = new RenewableSession("everything", a.session, async () => b.session);
    const renewed = new Promise<void>((resolve) =>
      renewable.onRenewal((phase) => {
        phases.push(phase);
        if (phase === "renewed") resolve();
      }),
    );
    const first = renewable.client.ping(OPTIONS);
    const second = renewable.client.ping(OPTIONS);
    expect(a.waiting).toHaveLength(2);

    a.waiting.shift()!.reject(lost());
    await renewed;
    // The renewal is done, the second request is still waiting on the lost session: not closed under it.
    expect(a.state.closed).toBe(false);
    await expect.poll(() => b.waiting.length).toBe(1);
    b.waiting.shift()!.resolve("pong from b");
    expect(await first).toBe("pong from b");

    a.waiting.shift()!.reject(lost());
    await expect.poll(() => b.waiting.length).toBe(1);
    b.waiting.shift()!.resolve("pong from b again");
    expect(await second).toBe("pong from b again");
    // Renewed once for both; the lost session is closed once nothing was left in flight on it.
    expect(phases).toEqual(["renewing", "renewed"]);
    await expect.poll(() => a.state.closed).toBe(true);
    expect(a.state.closedWith).toBe(0);
  });

  it("closing the connection ends what the lost session still had in flight", async () => {
    const a = fakeSession("a");
    const b = fakeSession("b");
    const renewable = new RenewableSession("everything", a.session, async () => b.session);
    const first = renewable.client.ping(OPTIONS);
    const second = renewable.client.ping(OPTIONS);
    a.waiting.shift()!.reject(lost());
    await expect.poll(() => b.waiting.length).toBe(1);
    b.waiting.shift()!.resolve("pong");
    expect(await first).toBe("pong");

    await renewable.client.close();
    await expect(second).rejects.toThrow(/Connection closed/);
    expect(a.state.closed).toBe(true);
    expect(b.state.closed).toBe(true);
  });
});
