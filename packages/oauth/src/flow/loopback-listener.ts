/**
 * The loopback redirect target: an HTTP listener on 127.0.0.1 that takes one
 * OAuth callback and shows the browser a short page. Port 0 (the default)
 * picks a free port per flow, so parallel logins never collide.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "../errors.js";

export interface LoopbackListener extends AsyncDisposable {
  readonly redirectUrl: string;
  close(): Promise<void>;
}

export interface LoopbackListenerOptions {
  /** 0 (default) for a free port. */
  port?: number;
  path?: string;
  /** Handles the callback; resolve for success, throw to show the failure in the browser. */
  onCallback: (params: URLSearchParams) => Promise<void>;
}

function page(title: string, body: string): string {
  const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>`;
}

export async function startLoopbackListener(options: LoopbackListenerOptions): Promise<LoopbackListener> {
  const callbackPath = options.path ?? "/callback";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== callbackPath) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    options.onCallback(url.searchParams).then(
      () => {
        res
          .writeHead(200, { "content-type": "text/html; charset=utf-8", connection: "close" })
          .end(page("Login complete", "You can close this tab and return to Pi."));
      },
      (error: unknown) => {
        const message = error instanceof OAuthError ? error.message : "The login could not be completed.";
        res
          .writeHead(400, { "content-type": "text/html; charset=utf-8", connection: "close" })
          .end(page("Login failed", message));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        new OAuthError(
          "callback_failed",
          `Cannot listen for the OAuth callback on 127.0.0.1:${options.port ?? 0}`,
          {
            cause: error,
          },
        ),
      ),
    );
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Lets an in-flight callback page finish; anything still open after a second is cut.
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), 1000);
    force.unref();
    await closed;
    clearTimeout(force);
  };
  return { redirectUrl: `http://127.0.0.1:${port}${callbackPath}`, close, [Symbol.asyncDispose]: close };
}
