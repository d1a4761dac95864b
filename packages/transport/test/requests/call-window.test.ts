/**
 * When a server may ask the client something, against a real in-process SDK
 * server that asks whenever the test says: elicitation and sampling only
 * while a call to it is in flight, at most `requestsPerCall` per call;
 * `roots/list` at any time. A refused request reaches the server as a
 * JSON-RPC error, and no handler (so no dialog) runs.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  connectInMemory,
  createFixtureServer,
  type FixtureTool,
  type ToolCallExtra,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { type ClientHandlers, connectServer, type ServerConnection } from "../../src/index.js";
import { definition, text } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const form = {
  method: "elicitation/create" as const,
  params: {
    message: "Name?",
    requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } },
  },
};
const sample = {
  method: "sampling/createMessage" as const,
  params: {
    messages: [{ role: "user" as const, content: { type: "text" as const, text: "Hi" } }],
    maxTokens: 5,
  },
};

/** What the server got back for a request: the result, or the error's code and message. */
async function outcome(ask: Promise<unknown>): Promise<unknown> {
  return ask.then(
    (result) => result,
    (error: { code?: unknown; message?: string }) => ({ code: error.code, message: error.message }),
  );
}

/** `ask` {times}: asks for the form `times` times during the call, reporting each outcome. */
const askTool: FixtureTool = {
  name: "ask",
  handler: async (args, extra: ToolCallExtra) => {
    const answers: unknown[] = [];
    for (let i = 0; i < Number(args.times ?? 1); i++) {
      answers.push(await outcome(extra.sendRequest(form, ElicitResultSchema)));
    }
    return { content: [{ type: "text", text: JSON.stringify(answers) }] };
  },
};

async function connect(handlers: ClientHandlers): Promise<Server> {
  const server = createFixtureServer({ tools: [askTool] });
  const transport = await connectInMemory(server);
  open = await connectServer(definition({ name: "asker", transport: "stdio", command: "x" }), {
    transport,
    handlers,
  });
  return server;
}

describe("server requests only during a call", () => {
  it("refuses elicitation and sampling between calls without asking anyone; roots are answered any time", async () => {
    const asked: string[] = [];
    const server = await connect({
      elicitation: async () => {
        asked.push("form");
        return { action: "accept", content: { name: "Ada" } };
      },
      sampling: async () => {
        asked.push("model");
        return { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
      },
      roots: async () => [{ uri: "file:///work", name: "work" }],
    });
    const refusal = {
      code: -32600,
      message:
        "MCP error -32600: elicitation/create is answered only while a call to this server (tools/call, resources/read, prompts/get) is in flight, and none is",
    };
    expect(await outcome(server.request(form, ElicitResultSchema))).toEqual(refusal);
    expect(await outcome(server.request(sample, CreateMessageResultSchema))).toEqual({
      ...refusal,
      message: refusal.message.replace("elicitation/create", "sampling/createMessage"),
    });
    expect(await outcome(server.request({ method: "roots/list" }, ListRootsResultSchema))).toEqual({
      roots: [{ uri: "file:///work", name: "work" }],
    });
    expect(asked).toEqual([]);
    // During a call the same request is answered; after it, refused again.
    expect(JSON.parse(text(await open!.callTool("ask", {})))).toEqual([
      { action: "accept", content: { name: "Ada" } },
    ]);
    expect(asked).toEqual(["form"]);
    expect(await outcome(server.request(form, ElicitResultSchema))).toEqual(refusal);
    expect(open!.closed).toBe(false);
  });

  it("answers at most requestsPerCall of them per call in flight", async () => {
    let asked = 0;
    await connect({
      requestsPerCall: 2,
      elicitation: async () => {
        asked++;
        return { action: "decline" };
      },
    });
    const answers = JSON.parse(text(await open!.callTool("ask", { times: 3 })));
    expect(answers).toEqual([
      { action: "decline" },
      { action: "decline" },
      {
        code: -32600,
        message:
          "MCP error -32600: elicitation/create refused: at most 2 elicitation and sampling requests are answered per call in flight",
      },
    ]);
    expect(asked).toBe(2);
    // The allowance lapses with the call; the next call has its own.
    expect(JSON.parse(text(await open!.callTool("ask", { times: 2 })))).toEqual([
      { action: "decline" },
      { action: "decline" },
    ]);
  });
});
