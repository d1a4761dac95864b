/**
 * The search warm-up runs only while the model answers: a tool call holds it
 * until the request carrying the results has left this process. "Left" is
 * Node's own signal that a `fetch` body was sent (undici's diagnostics
 * channel), raised here by a real `fetch` to a local server, as Pi's provider
 * requests raise it; a provider that does not use `fetch` ends the hold when
 * its response begins.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { TurnGates } from "../../src/pi/session/turn-gates.js";

const gates = () =>
  new TurnGates({
    runtimeFor: () => {
      throw new Error("no runtime in this test");
    },
    live: () => undefined,
    snapshot: () => undefined,
  });

/** Gates whose model answered with a tool call, with that call's hold, as the next request is about to go out. */
async function requestAfterToolCall() {
  const turn = gates();
  await turn.beforeToolCall("mcp");
  const held = turn.whenFree()!;
  turn.providerRequest();
  return { turn, held };
}

/** Settles on the next event-loop turn with whether `promise` had settled by then. */
async function settledYet(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await new Promise<void>((resolve) => setImmediate(resolve));
  return settled;
}

it("holds the warm-up from a tool call until the next request's body is sent", async () => {
  await using server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.end("{}"));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;

  const turn = gates();
  expect(turn.whenFree()).toBeUndefined();
  await turn.beforeToolCall("read");
  const held = turn.whenFree();
  expect(held).toBeInstanceOf(Promise);
  // A second call of the same answer joins the same hold.
  await turn.beforeToolCall("mcp");
  expect(turn.whenFree()).toBe(held);
  // The next request is about to go out: still held until its body has left.
  turn.providerRequest();
  expect(await settledYet(held!)).toBe(false);
  const answer = await fetch(url, { method: "POST", body: JSON.stringify({ messages: [] }) });
  await answer.text();
  await held;
  expect(turn.whenFree()).toBeUndefined();
});

it("ends the hold when the response begins, for a provider that sends without fetch", async () => {
  const { turn, held } = await requestAfterToolCall();
  expect(await settledYet(held)).toBe(false);
  turn.providerResponded();
  await held;
  expect(turn.whenFree()).toBeUndefined();
});

it.each([
  ["after the last request's work has run", false],
  ["before the last request's work has run", true],
])("a tool call of the next answer, %s, holds anew until the session ends", async (_, atOnce) => {
  const { turn, held: first } = await requestAfterToolCall();
  // No body-sent signal: the response begins, then the next answer's tool call comes (at once, or later).
  turn.providerResponded();
  if (!atOnce) await first;
  const call = turn.beforeToolCall("mcp");
  await first;
  await call;
  const second = turn.whenFree();
  expect(second).toBeInstanceOf(Promise);
  expect(second).not.toBe(first);
  expect(await settledYet(second!)).toBe(false);
  turn.sessionEnded();
  await second;
});
