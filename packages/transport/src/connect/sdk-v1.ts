/** SDK v1 (`@modelcontextprotocol/sdk`) behind the shared connect path: the classic 2025 handshake. */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { sseClosingOnStreamLoss } from "../http/sse-stream-loss.js";
import {
  type ClientHandlers,
  type ClientRequestMethod,
  clientCapabilities,
  registerClientHandlers,
} from "../inbound/client-handlers.js";
import { checkedCallToolResult } from "../protocol/call-tool-result.js";
import {
  ACCEPT_ANY_OUTPUT,
  ANY_RESULT,
  type HttpTransportOptions,
  type ProtocolClient,
  type SdkFlavor,
} from "../protocol/protocol-client.js";
import { protocolClientTable } from "../protocol/protocol-client-table.js";
import { ToolCallChannel } from "../protocol/tool-call-channel.js";
import { LineFramedTransport } from "../stdio/line-framed-transport.js";

/** v1 registers request handlers by schema rather than by method name. */
const REQUEST_SCHEMAS = {
  "elicitation/create": ElicitRequestSchema,
  "sampling/createMessage": CreateMessageRequestSchema,
  "roots/list": ListRootsRequestSchema,
} satisfies Record<ClientRequestMethod, unknown>;

export function v1Flavor(
  identity: { name: string; version: string },
  server: string,
  handlers: ClientHandlers | undefined,
): SdkFlavor {
  return {
    async open(transport, o) {
      const client = new V1Client(identity, {
        capabilities: clientCapabilities(handlers),
        jsonSchemaValidator: ACCEPT_ANY_OUTPUT,
      });
      registerClientHandlers(server, handlers, (method, handle) =>
        client.setRequestHandler(
          REQUEST_SCHEMAS[method],
          (request, extra) => handle(request.params, extra.signal) as Promise<never>,
        ),
      );
      await client.connect(transport, o);
      // On our own stream transports, plain tool calls go below the client (tool-call-channel.ts).
      const channel = transport instanceof LineFramedTransport ? new ToolCallChannel(transport) : undefined;
      return v1ProtocolClient(client, channel);
    },
    streamableHttp: (url, options) => new StreamableHTTPClientTransport(url, sdkOptions(options)),
    sse: (url, options) => sseClosingOnStreamLoss(url, sdkOptions(options)),
  };
}

function sdkOptions(options: HttpTransportOptions) {
  return {
    ...options,
    authProvider: options.authProvider as OAuthClientProvider | undefined,
  };
}

function v1ProtocolClient(client: V1Client, channel: ToolCallChannel | undefined): ProtocolClient {
  // Tools the client checks itself on a call (see `clientChecked`): their calls stay with the client.
  let checked = new Set<string>();
  const table = protocolClientTable(client, {
    protocolVersion: () => (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
    // The SDK's result schema only on answers our fast check cannot vouch for (call-tool-result.ts).
    callTool: (params, o) =>
      channel && !checked.has(params.name)
        ? channel.call(params, o, checkedCallToolResult)
        : client.callTool(params, ANY_RESULT as never, o).then(checkedCallToolResult),
    request: (request, o) => client.request(request as never, ANY_RESULT, o),
    classify: (error) => {
      if (!(error instanceof McpError)) return undefined;
      if (error.code === ErrorCode.RequestTimeout) return "timeout";
      if (error.code === ErrorCode.ConnectionClosed) return "closed";
      return undefined;
    },
  });
  if (!channel) return table;
  return {
    ...table,
    listTools: async (cursor, o) => {
      const page = await table.listTools(cursor, o);
      checked = clientChecked(page.tools);
      return page;
    },
  };
}

/**
 * The tools of a listing that SDK v1's `callTool` checks itself: one with an
 * output schema (an answer without structured content fails) and one that
 * requires a task (refused unsent). Like the client, only the last page
 * listed counts.
 */
function clientChecked(tools: readonly unknown[]): Set<string> {
  const names = new Set<string>();
  for (const tool of tools as {
    name?: unknown;
    outputSchema?: unknown;
    execution?: { taskSupport?: unknown };
  }[]) {
    if (typeof tool?.name !== "string") continue;
    if (tool.outputSchema || tool.execution?.taskSupport === "required") names.add(tool.name);
  }
  return names;
}
