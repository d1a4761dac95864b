/** SDK v1 (`@modelcontextprotocol/sdk`) behind the shared connect path: the classic 2025 handshake. */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { CreateMessageParams, ElicitRequestParams } from "@pi-mcp-adapter/core";
import { type ClientHandlers, clientCapabilities, runHandler } from "./client-handlers.js";
import {
  type HttpTransportOptions,
  type ProtocolClient,
  progressMeta,
  type SdkFlavor,
} from "./protocol-client.js";

/** Output schemas are checked by `SdkServerConnection` for every page of tools, for both SDKs. */
const NO_SDK_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

const cursorParams = (cursor: string | undefined) => (cursor ? { cursor } : undefined);

export function v1Flavor(
  identity: { name: string; version: string },
  server: string,
  handlers: ClientHandlers | undefined,
): SdkFlavor {
  return {
    async open(transport, o) {
      const client = new V1Client(identity, {
        capabilities: clientCapabilities(handlers),
        jsonSchemaValidator: NO_SDK_OUTPUT_VALIDATION,
      });
      registerHandlers(client, server, handlers);
      await client.connect(transport, o);
      return v1ProtocolClient(client);
    },
    streamableHttp: (url, options) => new StreamableHTTPClientTransport(url, sdkOptions(options)),
    sse: (url, options) => new SSEClientTransport(url, sdkOptions(options)),
  };
}

function sdkOptions(options: HttpTransportOptions) {
  return {
    ...options,
    authProvider: options.authProvider as OAuthClientProvider | undefined,
  };
}

function registerHandlers(client: V1Client, server: string, handlers: ClientHandlers | undefined): void {
  const { elicitation, sampling, roots } = handlers ?? {};
  if (elicitation) {
    client.setRequestHandler(
      ElicitRequestSchema,
      (request, extra) =>
        runHandler("elicitation/create", () =>
          elicitation(request.params as ElicitRequestParams, { server, signal: extra.signal }),
        ) as Promise<never>,
    );
  }
  if (sampling) {
    client.setRequestHandler(
      CreateMessageRequestSchema,
      (request, extra) =>
        runHandler("sampling/createMessage", () =>
          sampling(request.params as CreateMessageParams, { server, signal: extra.signal }),
        ) as Promise<never>,
    );
  }
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => ({
      roots: await runHandler("roots/list", () => roots({ server, signal: extra.signal })),
    }));
  }
}

export function v1ProtocolClient(client: V1Client): ProtocolClient {
  return {
    protocolVersion: () => (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
    serverVersion: () => {
      const info = client.getServerVersion();
      return info ? { name: info.name, version: info.version } : undefined;
    },
    instructions: () => client.getInstructions(),
    serverCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    ping: (o) => client.ping(o),
    listTools: (cursor, o) => client.listTools(cursorParams(cursor), o),
    listResources: (cursor, o) => client.listResources(cursorParams(cursor), o),
    listResourceTemplates: (cursor, o) => client.listResourceTemplates(cursorParams(cursor), o),
    listPrompts: (cursor, o) => client.listPrompts(cursorParams(cursor), o),
    readResource: (uri, o) => client.readResource({ uri }, o),
    getPrompt: (name, args, o) => client.getPrompt({ name, arguments: args }, o),
    callTool: (name, args, o, progressToken) =>
      client.callTool({ name, arguments: args, ...progressMeta(progressToken) }, undefined, o),
    complete: (params, o) => client.complete(params, o),
    subscribeResource: (uri, o) => client.subscribeResource({ uri }, o),
    notifyRootsChanged: () => client.sendRootsListChanged(),
    onClose: (handler) => {
      client.onclose = handler;
    },
    close: () => client.close(),
    classify: (error) => {
      if (!(error instanceof McpError)) return undefined;
      if (error.code === ErrorCode.RequestTimeout) return "timeout";
      if (error.code === ErrorCode.ConnectionClosed) return "closed";
      return undefined;
    },
  };
}
