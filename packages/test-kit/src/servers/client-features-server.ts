/**
 * A real SDK v1 server that exercises everything a server can send a client:
 * each notification kind and each server→client request. Served over stdio by
 * `fixtures/client-features-server.mjs` and over Streamable HTTP with
 * `serveStreamableHttp(() => createClientFeaturesServer())`.
 *
 * Tools (each answers with one text block):
 * - `notify_all` — sends tools/prompts/resources `list_changed`,
 *   `resources/updated` for `fixture://note`, a log message (info, logger
 *   `fixture`, data `{ hello: "world" }`) and, when the call carries a
 *   progress token, progress 1/2 and 2/2; answers `sent`.
 * - `elicit` {message?} — `elicitation/create` for a form with one `name` field.
 * - `sample` {prompt?} — `sampling/createMessage` with one user message.
 * - `list_roots` — `roots/list`.
 * - `roots_changed_count` — how many `notifications/roots/list_changed` arrived.
 * - `client_capabilities` — the capabilities the client declared, as JSON.
 * The three request tools answer with the client's result as JSON, or, when
 * the client refused, `isError` and `error <code>: <message>`.
 * Notifications and requests go out on the call's own stream (related to it),
 * so over HTTP they arrive before the tool's answer, as they do over stdio.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArgs: Tool["inputSchema"] = { type: "object", properties: {} };

export function createClientFeaturesServer(name = "client-features"): Server {
  const server = new Server(
    { name, version: "1.0.0" },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        logging: {},
      },
    },
  );
  let rootsChanged = 0;
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    rootsChanged++;
  });
  const tools: Tool[] = [
    { name: "notify_all", description: "Send every notification kind.", inputSchema: noArgs },
    {
      name: "elicit",
      description: "Ask the client for a name (elicitation).",
      inputSchema: { type: "object", properties: { message: { type: "string" } } },
    },
    {
      name: "sample",
      description: "Ask the client's model for a completion (sampling).",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } } },
    },
    { name: "list_roots", description: "Ask the client for its roots.", inputSchema: noArgs },
    {
      name: "roots_changed_count",
      description: "Count roots list_changed notifications.",
      inputSchema: noArgs,
    },
  ];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: "fixture://note", name: "note", mimeType: "text/plain" }],
  }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [{ name: "greet", description: "Say hello." }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    // Refusals come back as a readable result, so a test sees the code and message the client sent.
    const answer = async (ask: () => Promise<unknown>): Promise<CallToolResult> => {
      try {
        return text(JSON.stringify(await ask()));
      } catch (error) {
        const e = error as { code?: unknown; message?: string };
        return { isError: true, content: [{ type: "text", text: `error ${e.code}: ${e.message}` }] };
      }
    };
    switch (request.params.name) {
      case "notify_all": {
        const notify = extra.sendNotification;
        await notify({ method: "notifications/tools/list_changed" });
        await notify({ method: "notifications/prompts/list_changed" });
        await notify({ method: "notifications/resources/list_changed" });
        await notify({ method: "notifications/resources/updated", params: { uri: "fixture://note" } });
        await notify({
          method: "notifications/message",
          params: { level: "info", logger: "fixture", data: { hello: "world" } },
        });
        const progressToken = request.params._meta?.progressToken;
        if (progressToken !== undefined) {
          for (const progress of [1, 2]) {
            await notify({
              method: "notifications/progress",
              params: { progressToken, progress, total: 2, message: `step ${progress}` },
            });
          }
        }
        return text("sent");
      }
      case "elicit":
        return answer(() =>
          extra.sendRequest(
            {
              method: "elicitation/create",
              params: {
                message: typeof args.message === "string" ? args.message : "Who are you?",
                requestedSchema: {
                  type: "object",
                  properties: { name: { type: "string", description: "Your name" } },
                  required: ["name"],
                },
              },
            },
            ElicitResultSchema,
          ),
        );
      case "sample":
        return answer(() =>
          extra.sendRequest(
            {
              method: "sampling/createMessage",
              params: {
                messages: [
                  {
                    role: "user",
                    content: { type: "text", text: typeof args.prompt === "string" ? args.prompt : "Hi" },
                  },
                ],
                maxTokens: 50,
              },
            },
            CreateMessageResultSchema,
          ),
        );
      case "list_roots":
        return answer(() => extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema));
      case "roots_changed_count":
        return text(String(rootsChanged));
      case "client_capabilities":
        return text(JSON.stringify(server.getClientCapabilities() ?? {}));
      default:
        return { isError: true, content: [{ type: "text", text: `Unknown tool ${request.params.name}` }] };
    }
  });
  return server;
}
