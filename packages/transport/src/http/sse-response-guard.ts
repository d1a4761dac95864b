/**
 * Streamable HTTP answers a request with an SSE stream. If the server cuts
 * that stream before the answer (and gave no event id to resume from), the
 * SDK would wait for the request timeout. This `fetch` wrapper notices and
 * completes the stream with a JSON-RPC error for the pending request, so the
 * call fails at once with a clear message.
 */
import type { FetchLike } from "./http-shape-probe.js";

const encoder = new TextEncoder();
export const SSE_CUT_MESSAGE = "the server ended the response stream before answering";

export function guardSseResponses(inner: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    const requestId = init?.method === "POST" ? pendingRequestId(init.body) : undefined;
    const type = response.headers.get("content-type") ?? "";
    if (requestId === undefined || !response.ok || !type.includes("text/event-stream") || !response.body) {
      return response;
    }
    return new Response(guardStream(response.body, requestId), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function pendingRequestId(body: unknown): string | number | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    const id = message.id;
    return typeof message.method === "string" && (typeof id === "string" || typeof id === "number")
      ? id
      : undefined;
  } catch {
    return undefined;
  }
}

function guardStream(
  body: ReadableStream<Uint8Array>,
  requestId: string | number,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let answered = false;
  let resumable = false;
  const onEvent = (event: string) => {
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith("id:")) resumable = true;
      if (line.startsWith("data:")) {
        try {
          const message = JSON.parse(line.slice(5)) as { id?: unknown; result?: unknown; error?: unknown };
          if (message.id === requestId && ("result" in message || "error" in message)) answered = true;
        } catch {
          // not JSON-RPC: the SDK reports it
        }
      }
    }
  };
  // The text of the event under way, in pieces, and its last few characters (where an event
  // boundary split across chunks begins): each chunk is searched once and the pieces joined
  // once, so a 50 MB event costs one pass instead of one per chunk.
  let pieces: string[] = [];
  let carry = "";
  const observe = (chunk: Uint8Array) => {
    let fresh = decoder.decode(chunk, { stream: true });
    for (;;) {
      const window = carry + fresh;
      const boundary = /\r?\n\r?\n/.exec(window);
      if (!boundary) {
        pieces.push(fresh);
        carry = window.slice(-3);
        return;
      }
      const cut = boundary.index - carry.length; // where the boundary starts in `fresh` (< 0: in `carry`)
      const before = pieces.join("");
      onEvent(cut < 0 ? before.slice(0, before.length + cut) : before + fresh.slice(0, cut));
      fresh = fresh.slice(boundary.index + boundary[0].length - carry.length);
      pieces = [];
      carry = "";
    }
  };
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (!answered && !resumable) {
      const error = { jsonrpc: "2.0", id: requestId, error: { code: -32603, message: SSE_CUT_MESSAGE } };
      controller.enqueue(encoder.encode(`\n\nevent: message\ndata: ${JSON.stringify(error)}\n\n`));
    }
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return finish(controller);
        observe(value);
        controller.enqueue(value);
      } catch {
        finish(controller); // the connection broke mid-stream
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
