/**
 * The session's MCP Apps viewer. A call of a tool with a `ui://` resource
 * opens its app in the browser (one window per server and tool; calling the
 * same tool again pushes the new input and result into the open window);
 * the app's messages wait in a queue until the model reads them. The
 * loopback server starts with the first window and stops with `close()`
 * (session shutdown).
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AppCspDomains, appCsp, cspDomainsOf } from "./app-csp.js";
import { type AppPermissions, appPermissions, refusedPermissionsNote } from "./app-permissions.js";
import { AppWindow, type UiModelContext } from "./app-window.js";
import { UiError } from "./errors.js";
import { hostPage, hostPageCsp } from "./host-page.js";
import { LaunchPages } from "./launch-page.js";
import { LoopbackServer, randomKey, readJson } from "./loopback-server.js";
import { openInBrowser } from "./open-browser.js";
import { type AskToolConsent, ToolConsent, type ToolConsentMode, toolConsentMode } from "./tool-consent.js";
import type { UiBackend, UiResourceContent, UiToolCall } from "./ui-backend.js";
import { type UiMessage, UiMessageQueue } from "./ui-messages.js";

export interface UiViewerOptions {
  /**
   * Opens a window: it is handed the `file://` URL of a private local page
   * that leads the browser in (launch-page.ts), never a URL with a secret.
   * Default the platform's browser opener.
   */
  open?: (url: string) => Promise<void>;
  /** Where launch pages are written (in a private directory made there); default the system's temp dir. */
  launchDir?: string;
  /** Opens links apps ask for (`ui/open-link`); default `open`. */
  openLink?: (url: string) => Promise<void>;
  /** Tool consent; default from `MCP_UI_TOOL_CONSENT`, else `once-per-server`. */
  consent?: ToolConsentMode;
  /** Asks the user whether an app may call a tool; left out, app tool calls are refused. */
  askConsent?: AskToolConsent;
  /** How this host introduces itself to apps. */
  hostInfo?: { name: string; version: string };
  /** How long a window may have no host page connected before it counts as closed; default 15 s. */
  goneAfterMs?: number;
  /**
   * Offered each `message`, `prompt` and `intent` an app sends: returns true
   * when the host took it (started a model turn with it). Left out, or
   * answering false, the message waits in the queue (`takeMessages`).
   */
  deliver?: (message: UiMessage) => boolean;
  /** An app's `ui/update-model-context`: what it wants the model to know from now on (replacing its last update). */
  onModelContext?: (update: UiModelContext) => void;
  /** Notes for the user about a window (permissions it asked for and did not get). */
  notify?: (message: string) => void;
}

/** A window `show` opened or updated. */
export interface ShownApp {
  sessionId: string;
  /**
   * What opens the window's host page: for a new window, the launch page
   * the browser was handed; for an open one, a fresh one-time entry URL
   * (neither holds the viewer's token).
   */
  url: string;
  /** True when the result went into a window that was already open. */
  reused: boolean;
}

export class UiViewer {
  private readonly server = new LoopbackServer();
  private readonly windows = new Map<string, AppWindow>();
  private readonly queue = new UiMessageQueue();
  /** Each window's app-document key (the only secret its iframe sees). */
  private readonly appKeys = new Map<string, string>();
  /** Each window's permissions and the note about those refused. */
  private readonly framing = new Map<string, { permissions: AppPermissions; note?: string }>();
  /** Windows being opened, by server and tool. */
  private readonly opening = new Map<string, Promise<ShownApp>>();
  private readonly consent: ToolConsent;
  private readonly open: (url: string) => Promise<void>;
  private readonly launches: LaunchPages;
  private closing = false;

  constructor(
    private readonly backend: UiBackend,
    private readonly options: UiViewerOptions = {},
  ) {
    this.consent = new ToolConsent(options.consent ?? toolConsentMode(), options.askConsent);
    this.open = options.open ?? ((url) => openInBrowser(url));
    this.launches = new LaunchPages(options.launchDir);
    this.server.route(WINDOW_ROUTE, (request, response, rest) => this.serveWindow(request, response, rest), {
      session: true,
    });
  }

  /** Opens the app of a UI tool's call, or pushes the call into its open window. */
  async show(call: UiToolCall, signal?: AbortSignal): Promise<ShownApp> {
    if (this.closing) throw new UiError("viewer_closed", "The MCP Apps viewer is shut down");
    const key = windowKey(call.serverName, call.toolName);
    // A second call while the window is still opening waits for it, then updates it.
    await this.opening.get(key)?.catch(() => {});
    const open = this.windows.get(key);
    if (open && !open.closed) {
      await open.push(call);
      return { sessionId: open.id, url: this.urlOf(open.id), reused: true };
    }
    const opening = this.openWindow(key, call, signal);
    this.opening.set(key, opening);
    try {
      return await opening;
    } finally {
      if (this.opening.get(key) === opening) this.opening.delete(key);
    }
  }

  private async openWindow(key: string, call: UiToolCall, signal?: AbortSignal): Promise<ShownApp> {
    const document = await this.appDocument(call, signal);
    await this.server.start();
    const id = randomBytes(6).toString("hex");
    const appKey = randomKey();
    const permissions = appPermissions(document.meta);
    const note = refusedPermissionsNote(`The ${call.serverName} app (${call.toolName})`, permissions.refused);
    const deliver = this.options.deliver;
    const window = await AppWindow.open({
      id,
      call,
      backend: this.backend,
      consent: this.consent,
      queue: (message) => {
        if (!deliver?.(message)) this.queue.push(message);
      },
      ...(this.options.onModelContext ? { onModelContext: this.options.onModelContext } : {}),
      granted: permissions.granted,
      openLink: this.options.openLink ?? this.open,
      hostInfo: this.options.hostInfo ?? { name: "pi-mcp-adapter", version: "0.0.0" },
      ...(this.options.goneAfterMs !== undefined ? { goneAfterMs: this.options.goneAfterMs } : {}),
      onClose: (closed) => {
        if (this.windows.get(key) === closed) this.windows.delete(key);
        this.appKeys.delete(id);
        this.framing.delete(id);
        this.server.unroute(appKey);
        void this.launches.remove(id);
      },
    });
    const csp = appCsp(document.csp);
    this.server.route(appKey, (request, response, rest) => {
      if (request.method !== "GET" || rest.length > 0) return void response.writeHead(404).end();
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": csp,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      });
      response.end(document.html);
    });
    this.windows.set(key, window);
    this.appKeys.set(id, appKey);
    this.framing.set(id, { permissions, ...(note ? { note } : {}) });
    if (note) this.options.notify?.(note);
    let url: string;
    try {
      url = await this.launches.write(id, this.urlOf(id));
      await this.open(url);
    } catch (error) {
      // Nobody can see this window: the next call tries to open a new one.
      await window.close("shutdown");
      throw error;
    }
    return { sessionId: id, url, reused: false };
  }

  /** The messages apps sent since the last call (oldest first), and how many older ones were dropped. */
  takeMessages(): { messages: UiMessage[]; dropped: number } {
    return this.queue.take();
  }

  /** Open windows. */
  sessions(): { sessionId: string; serverName: string; toolName: string }[] {
    return [...this.windows.values()].map((w) => ({
      sessionId: w.id,
      serverName: w.serverName,
      toolName: w.toolName,
    }));
  }

  /** The loopback server's origin (`http://127.0.0.1:<port>`) once a window opened. */
  get origin(): string {
    return this.server.origin;
  }

  /** Closes every window and stops the loopback server. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.windows.values()].map((w) => w.close("shutdown")));
    this.windows.clear();
    await this.server.stop();
    await this.launches.close();
  }

  /** A one-time entry URL for the window (a browser's command line is public on this machine). */
  private urlOf(sessionId: string): string {
    return this.server.entryUrl(`/${WINDOW_ROUTE}/${sessionId}`);
  }

  private windowById(id: string): AppWindow | undefined {
    return [...this.windows.values()].find((w) => w.id === id);
  }

  private async serveWindow(
    request: IncomingMessage,
    response: ServerResponse,
    rest: string[],
  ): Promise<void> {
    const [id = "", endpoint] = rest;
    const window = this.windowById(id);
    const appKey = this.appKeys.get(id);
    if (!window || !appKey)
      return void response.writeHead(404, { "content-type": "text/plain" }).end("No such app window");
    if (request.method === "GET" && endpoint === undefined) {
      // The browser came in: its launch page (the way in) is no longer needed.
      void this.launches.remove(id);
      const nonce = randomKey();
      response.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": hostPageCsp(nonce),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      });
      const framing = this.framing.get(id);
      return void response.end(
        hostPage({
          title: `${window.serverName} · ${window.toolName}`,
          appUrl: `/${appKey}`,
          nonce,
          allow: framing?.permissions.allow,
          note: framing?.note,
        }),
      );
    }
    if (request.method === "GET" && endpoint === "events") return window.attachStream(response);
    if (request.method === "POST" && (endpoint === "rpc" || endpoint === "action" || endpoint === "close")) {
      let body: unknown;
      try {
        body = await readJson(request);
      } catch {
        return void response.writeHead(400, { "content-type": "text/plain" }).end("Body must be JSON");
      }
      response.writeHead(204).end();
      if (endpoint === "rpc") window.receive(body);
      else if (endpoint === "action") await window.action(body);
      else {
        const reason = (body as { reason?: unknown } | null)?.reason;
        await window.close(reason === "complete" ? "complete" : "cancel");
      }
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
  }

  /** The app's HTML and CSP domains from its `ui://` resource. */
  private async appDocument(
    call: UiToolCall,
    signal?: AbortSignal,
  ): Promise<{ html: string; csp: AppCspDomains | undefined; meta: unknown }> {
    const read = await this.backend.readResource(call.serverName, call.resourceUri, signal);
    const content = read.contents.find(isHtml) ?? read.contents[0];
    const html =
      content?.text ??
      (content?.blob !== undefined ? Buffer.from(content.blob, "base64").toString("utf8") : undefined);
    if (html === undefined) {
      throw new UiError(
        "no_html_content",
        `UI resource ${call.resourceUri} of ${call.serverName} has no HTML content`,
      );
    }
    return { html, csp: cspDomainsOf(content?._meta), meta: content?._meta };
  }
}

/** Host pages and their relay endpoints live under `/w/<window id>`, for the session cookie's holder only. */
const WINDOW_ROUTE = "w";

function windowKey(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}

function isHtml(content: UiResourceContent): boolean {
  return (content.mimeType ?? "").toLowerCase().startsWith("text/html");
}
