/**
 * One open app: its HTML, the MCP Apps bridge (`AppBridge` from
 * `@modelcontextprotocol/ext-apps`, loaded on first use) over a relay to the
 * browser, the host page's event streams, and what the app asked for —
 * tool calls (consent, then the backend), resource reads, messages for the
 * model, links.
 */
import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import type { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { RelayTransport } from "./relay-transport.js";
import type { ToolConsent } from "./tool-consent.js";
import type { UiBackend, UiToolCall, UiToolResult } from "./ui-backend.js";
import type { UiMessage, UiMessageType } from "./ui-messages.js";

export interface AppWindowOptions {
  id: string;
  call: UiToolCall;
  backend: UiBackend;
  consent: ToolConsent;
  /** Where the app's messages for the model go. */
  queue: (message: UiMessage) => void;
  /** Where the app's `ui/update-model-context` goes; left out, the host does not offer it. */
  onModelContext?: (update: UiModelContext) => void;
  /** The sandbox permissions the app was granted (told in `ui/initialize`). */
  granted?: Record<string, object>;
  /** Opens an http(s) link the app asked for; left out, links are refused. */
  openLink?: (url: string) => Promise<void>;
  /** Called once when the window closes (completed, cancelled, tab gone, torn down by the app, or shut down). */
  onClose: (window: AppWindow) => void;
  /** Default `WINDOW_GONE_AFTER_MS`. */
  goneAfterMs?: number;
  hostInfo: { name: string; version: string };
}

/**
 * Why a window closed: the user completed or cancelled it, closed the tab
 * (`gone`: no host page connected for `goneAfterMs`), the app asked to be
 * torn down, or the session shut down.
 */
export type CloseReason = "complete" | "cancel" | "gone" | "app" | "shutdown";

/** An app's `ui/update-model-context`: what the model should know from the app from now on. */
export interface UiModelContext {
  sessionId: string;
  serverName: string;
  toolName: string;
  /** Content blocks as the app sent them (text blocks are what a host shows the model). */
  content: unknown[];
  structuredContent?: Record<string, unknown>;
}

/** How long a window may have no host page connected (tab closed, browser quit) before it counts as closed. */
export const WINDOW_GONE_AFTER_MS = 15_000;

export class AppWindow {
  readonly id: string;
  readonly serverName: string;
  readonly toolName: string;
  private readonly transport = new RelayTransport();
  private bridge: AppBridge | undefined;
  private initialized = false;
  private pending: UiToolCall | undefined;
  private readonly streams = new Set<ServerResponse>();
  private closedReason: CloseReason | undefined;
  private goneTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly options: AppWindowOptions) {
    this.id = options.id;
    this.serverName = options.call.serverName;
    this.toolName = options.call.toolName;
    this.pending = options.call;
  }

  static async open(options: AppWindowOptions): Promise<AppWindow> {
    const window = new AppWindow(options);
    await window.connect();
    return window;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Delivers a (new) tool input and result; held until the app has initialized. */
  async push(call: UiToolCall): Promise<void> {
    if (!this.initialized || !this.bridge) {
      this.pending = call;
      return;
    }
    await this.bridge.sendToolInput({ arguments: call.args });
    await this.bridge.sendToolResult(call.result as Parameters<AppBridge["sendToolResult"]>[0]);
  }

  /** A host page's event stream: the app's messages go to the newest one. */
  attachStream(response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    response.write(": open\n\n");
    if (this.closedReason) {
      response.end(`event: closed\ndata: ${this.closedReason}\n\n`);
      return;
    }
    this.streams.add(response);
    clearTimeout(this.goneTimer);
    const sink = (message: unknown) => response.write(`data: ${JSON.stringify(message)}\n\n`);
    this.transport.attach(sink);
    response.on("close", () => {
      this.streams.delete(response);
      this.transport.detach(sink);
      // A reload reconnects at once; a closed tab never does, and the next call should open a new window.
      if (this.streams.size === 0 && !this.closedReason) {
        this.goneTimer = setTimeout(
          () => void this.close("gone"),
          this.options.goneAfterMs ?? WINDOW_GONE_AFTER_MS,
        );
        this.goneTimer.unref();
      }
    });
  }

  /** A JSON-RPC message the app posted. */
  receive(message: unknown): void {
    if (
      typeof message === "object" &&
      message !== null &&
      (message as { jsonrpc?: unknown }).jsonrpc === "2.0"
    ) {
      this.transport.receive(message as JSONRPCMessage);
    }
  }

  /** An MCP-UI action (`{ type, payload, messageId }`) the app posted. */
  async action(body: unknown): Promise<void> {
    if (typeof body !== "object" || body === null) return;
    const { type, payload, messageId } = body as { type?: unknown; payload?: unknown; messageId?: unknown };
    if (typeof type !== "string") return;
    const reply = (answer: { response?: unknown; error?: unknown }) => {
      if (typeof messageId === "string")
        this.post({ type: "ui-message-response", messageId, payload: answer });
    };
    switch (type) {
      case "prompt":
      case "intent":
      case "notify":
        this.queue(type, payload);
        return reply({ response: { queued: true } });
      case "tool": {
        const { toolName, params } = (payload ?? {}) as { toolName?: unknown; params?: unknown };
        if (typeof toolName !== "string") return reply({ error: "payload.toolName must be a string" });
        const result = await this.callTool(toolName, isRecord(params) ? params : {});
        return reply(result.isError ? { error: textOf(result) } : { response: result });
      }
      case "link": {
        const url = (payload as { url?: unknown } | undefined)?.url;
        const failure = typeof url === "string" ? await this.openLink(url) : "payload.url must be a string";
        return reply(failure ? { error: failure } : { response: { opened: true } });
      }
      default:
        // The iframe lifecycle and size messages of MCP-UI are not for the model.
        if (type.startsWith("ui-")) return;
        this.queue("intent", { intent: type, params: payload });
        return reply({ response: { queued: true } });
    }
  }

  /** Ends the window: the page shows it closed, the app is torn down, a `close` message is queued (for the user's own closing). */
  async close(reason: CloseReason): Promise<void> {
    if (this.closedReason) return;
    this.closedReason = reason;
    clearTimeout(this.goneTimer);
    if (reason === "complete" || reason === "cancel" || reason === "gone") this.queue("close", { reason });
    for (const stream of this.streams) stream.end(`event: closed\ndata: ${reason}\n\n`);
    this.streams.clear();
    await this.bridge?.close().catch(() => {});
    this.options.onClose(this);
  }

  private post(message: unknown): void {
    void this.transport.send(message as JSONRPCMessage);
  }

  private queue(type: UiMessageType, payload: unknown): void {
    this.options.queue({
      type,
      sessionId: this.id,
      serverName: this.serverName,
      toolName: this.toolName,
      timestamp: new Date().toISOString(),
      payload,
    });
  }

  private async callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<UiToolResult> {
    const refusal = await this.options.consent.check({
      serverName: this.serverName,
      toolName: name,
      appToolName: this.toolName,
    });
    if (refusal) return errorResult(refusal);
    try {
      return await this.options.backend.callTool(this.serverName, name, args, signal);
    } catch (error) {
      return errorResult(error instanceof Error ? error.message : String(error));
    }
  }

  /** Undefined when opened, else why not. */
  private async openLink(url: string): Promise<string | undefined> {
    if (!/^https?:\/\//i.test(url)) return "Only http(s) links can be opened";
    if (!this.options.openLink) return "Links cannot be opened here";
    try {
      await this.options.openLink(url);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private async connect(): Promise<void> {
    // Loaded here, not at import: only sessions that show an app pay for the bridge.
    const { AppBridge } = await import("@modelcontextprotocol/ext-apps/app-bridge");
    const call = this.options.call;
    const bridge = new AppBridge(
      null,
      this.options.hostInfo,
      {
        serverTools: {},
        serverResources: {},
        openLinks: {},
        logging: {},
        message: { text: {} },
        ...(this.options.onModelContext ? { updateModelContext: { text: {} } } : {}),
        sandbox: { permissions: this.options.granted ?? {} },
      },
      {
        hostContext: {
          theme: "light",
          platform: "web",
          displayMode: "inline",
          availableDisplayModes: ["inline"],
          locale: Intl.DateTimeFormat().resolvedOptions().locale,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          toolInfo: {
            tool: (call.tool ?? { name: call.toolName, inputSchema: { type: "object" } }) as never,
          },
        },
      },
    );
    bridge.oncalltool = async (params, extra) =>
      (await this.callTool(params.name, params.arguments ?? {}, extra.mcpReq?.signal)) as never;
    bridge.onreadresource = async (params, extra) =>
      (await this.options.backend.readResource(this.serverName, params.uri, extra.mcpReq?.signal)) as never;
    bridge.onmessage = async (params) => {
      this.queue("message", params);
      return {};
    };
    const onModelContext = this.options.onModelContext;
    if (onModelContext) {
      bridge.onupdatemodelcontext = async (params) => {
        onModelContext({
          sessionId: this.id,
          serverName: this.serverName,
          toolName: this.toolName,
          content: Array.isArray(params.content) ? params.content : [],
          ...(isRecord(params.structuredContent) ? { structuredContent: params.structuredContent } : {}),
        });
        return {};
      };
    }
    bridge.onopenlink = async (params) => {
      const failure = await this.openLink(params.url);
      return failure ? { isError: true } : {};
    };
    bridge.onrequestteardown = () => void this.close("app");
    bridge.oninitialized = () => {
      this.initialized = true;
      const pending = this.pending;
      this.pending = undefined;
      if (pending) void this.push(pending).catch(() => {});
    };
    await bridge.connect(this.transport);
    this.bridge = bridge;
  }
}

function errorResult(text: string): UiToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function textOf(result: UiToolResult): string {
  return result.content
    .map((c) => (c as { text?: unknown }).text)
    .filter((t): t is string => typeof t === "string")
    .join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
