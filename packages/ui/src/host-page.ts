/**
 * The page the browser opens for one app window. It holds the app in a
 * sandboxed iframe (scripts and forms only: no `allow-same-origin`, so the
 * app runs in an opaque origin and cannot reach this page or its server)
 * and relays between them: the app's `postMessage`s go to the server
 * (`/rpc` for MCP Apps JSON-RPC, `/action` for MCP-UI actions), the
 * server's answers come back over an event stream and are posted into the
 * iframe. The MCP Apps bridge itself (`AppBridge`) runs in the server.
 * Cmd/Ctrl+Enter completes the window, Escape cancels it.
 */

export interface HostPageOptions {
  title: string;
  /** The app document's URL (its own key, never the session token). */
  appUrl: string;
  /** The nonce that lets this page's one script run under its CSP. */
  nonce: string;
  /** The iframe's `allow` attribute: the permissions granted (app-permissions.ts); empty for none. */
  allow?: string;
  /** A note for the user shown above the app (e.g. permissions refused). */
  note?: string;
}

/** The host page's own CSP: its inline script, the relay endpoints, the app's frame. */
export function hostPageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export function hostPage(options: HostPageOptions): string {
  const title = escapeHtml(options.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>
  html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
  body { display: flex; flex-direction: column; }
  header { display: flex; gap: .5rem; align-items: center; padding: .4rem .75rem; border-bottom: 1px solid #ddd; font-size: .9rem; }
  header strong { flex: 1; }
  #note { margin: 0; padding: .3rem .75rem; background: #fff4d6; font-size: .85rem; }
  iframe { flex: 1; border: 0; width: 100%; }
  body[data-state="closed"] iframe { opacity: .4; pointer-events: none; }
</style>
</head>
<body data-state="open">
<header><strong id="title">${title}</strong><span id="state"></span>
<button id="complete" title="Cmd/Ctrl+Enter">Done</button><button id="cancel" title="Escape">Cancel</button></header>
${options.note ? `<p id="note" role="status">${escapeHtml(options.note)}</p>\n` : ""}<iframe id="app" sandbox="allow-scripts allow-forms" ${options.allow ? `allow="${escapeHtml(options.allow)}" ` : ""}referrerpolicy="no-referrer" data-src="${escapeHtml(options.appUrl)}"></iframe>
<script nonce="${options.nonce}">
(() => {
  const base = location.pathname.replace(/\\/$/, "");
  const frame = document.getElementById("app");
  const state = document.getElementById("state");
  const post = (path, body) =>
    fetch(base + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => {});
  const events = new EventSource(base + "/events");
  events.onmessage = (event) => frame.contentWindow && frame.contentWindow.postMessage(JSON.parse(event.data), "*");
  events.addEventListener("closed", (event) => {
    document.body.dataset.state = "closed";
    state.textContent = event.data === "complete" ? "Done" : event.data === "cancel" ? "Cancelled" : "Closed";
    events.close();
  });
  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow) return;
    const data = event.data;
    if (data && typeof data === "object" && data.jsonrpc === "2.0") post("/rpc", data);
    else if (data && typeof data === "object" && typeof data.type === "string") post("/action", data);
  });
  const finish = (reason) => { if (document.body.dataset.state === "open") post("/close", { reason }); };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) { event.preventDefault(); finish("complete"); }
    else if (event.key === "Escape") { event.preventDefault(); finish("cancel"); }
  });
  document.getElementById("complete").onclick = () => finish("complete");
  document.getElementById("cancel").onclick = () => finish("cancel");
  // The stream is open before the app starts talking.
  events.onopen = () => { if (!frame.src) frame.src = frame.dataset.src; };
})();
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
