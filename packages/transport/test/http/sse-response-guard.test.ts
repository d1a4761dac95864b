import { describe, expect, it } from "vitest";
import { guardSseResponses, SSE_CUT_MESSAGE } from "../../src/http/sse-response-guard.js";

// The inner fetch hands back a real Response over a stream cut into the given pieces, the way a
// socket delivers an SSE answer; no server is needed to see how the guard reads the pieces.
async function guarded(pieces: string[]): Promise<string> {
  const encoder = new TextEncoder();
  const inner = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(encoder.encode(piece));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  const response = await guardSseResponses(inner)("http://x/mcp", {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
  });
  return response.text();
}

const answer = (extra = "") => `event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"x":"${extra}"}}`;

describe("guardSseResponses", () => {
  it("sees an answer whose event boundary is split across chunks (\\r\\n\\r\\n in two pieces)", async () => {
    const text = answer();
    const body = await guarded([text.slice(0, 10), text.slice(10), "\r\n", "\r\n"]);
    expect(body).not.toContain(SSE_CUT_MESSAGE);
  });

  it("sees an answer of several MB that arrives in small chunks", async () => {
    const text = `${answer("y".repeat(5 * 1024 * 1024))}\n\n`;
    const pieces: string[] = [];
    for (let at = 0; at < text.length; at += 16 * 1024) pieces.push(text.slice(at, at + 16 * 1024));
    const body = await guarded(pieces);
    expect(body.length).toBe(text.length);
    expect(body).not.toContain(SSE_CUT_MESSAGE);
  });

  it("completes a stream cut before the answer with an error for the pending request", async () => {
    const body = await guarded([
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n',
    ]);
    expect(body).toContain(SSE_CUT_MESSAGE);
  });
});
