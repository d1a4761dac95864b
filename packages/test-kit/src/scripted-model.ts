/**
 * A scripted OpenAI-compatible chat-completions server on 127.0.0.1.
 *
 * Pi talks to it as to any `openai-completions` provider. Each request takes
 * the next scripted step (a tool call or a text answer) and every request body
 * is recorded, so a test can read what the agent sent back — for example the
 * `role: "tool"` message that carries a tool's result. Any client with the
 * provider's credentials gets the same script: an extension's own completion
 * (MCP sampling through Pi's model) takes the next step like an agent turn.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptStep =
  | { toolCall: { name: string; arguments: Record<string, unknown> } }
  | { text: string };

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

/** A step may be computed from the request it answers (e.g. to use an earlier tool result). */
export type ScriptEntry = ScriptStep | ((request: ChatRequest) => ScriptStep);

export interface ScriptedModel extends AsyncDisposable {
  /** Base URL to put in Pi's models.json, ending in `/v1`. */
  baseUrl: string;
  /** Every chat request received, in order. */
  requests: ChatRequest[];
  /** The `authorization` header of each request, in the same order (which credentials the client used). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** Text of the tool-result messages in a request, in order. */
export function toolResultTexts(request: ChatRequest): string[] {
  return request.messages.filter((m) => m.role === "tool").map((m) => messageText(m.content));
}

/** Text of the user messages in a request, in order. */
export function userMessageTexts(request: ChatRequest): string[] {
  return request.messages.filter((m) => m.role === "user").map((m) => messageText(m.content));
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && "text" in part ? String(part.text) : ""))
      .join("");
  }
  return "";
}

export async function startScriptedModel(script: ScriptEntry[]): Promise<ScriptedModel> {
  const requests: ChatRequest[] = [];
  const authorizations: (string | undefined)[] = [];
  let callCounter = 0;
  const server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(req)) as ChatRequest;
    const index = requests.length;
    requests.push(body);
    authorizations.push(req.headers.authorization);
    const entry = script[index] ?? { text: "Done." };
    const step = typeof entry === "function" ? entry(body) : entry;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const base = { id: `chatcmpl-${index}`, object: "chat.completion.chunk", created: 0, model: body.model };
    const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    if ("toolCall" in step) {
      callCounter += 1;
      send({
        ...base,
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              tool_calls: [
                {
                  index: 0,
                  id: `call_${callCounter}`,
                  type: "function",
                  function: { name: step.toolCall.name, arguments: JSON.stringify(step.toolCall.arguments) },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    } else {
      send({
        ...base,
        choices: [{ index: 0, delta: { role: "assistant", content: step.text }, finish_reason: null }],
      });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    }
    send({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
