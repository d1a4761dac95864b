/**
 * A small MCP App server: `show_board` has a `ui://` resource whose HTML
 * speaks the MCP Apps protocol by hand (JSON-RPC over `postMessage`, as an
 * app built without the SDK would). The page shows the tool result it is
 * given; its "Add" button calls the app-only `add_item` through the bridge
 * and, when that succeeds, sends a `ui/message` plus MCP-UI `notify` and a
 * custom `celebrate` action; its "Share" button sends `ui/update-model-context`
 * with the board's items (a counter in the text, so a later update differs).
 * The resource asks for the camera and clipboard writes
 * (`_meta.ui.permissions`). `admin_reset` is model-only.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

export const APP_FIXTURE_RESOURCE_URI = "ui://board/board.html";

/** The start of the text each `ui/update-model-context` of the app carries (then `#<n>: <items>`). */
export const APP_FIXTURE_CONTEXT = "Board items";

/** The text the app's `ui/message` carries after a successful `add_item`. */
export const APP_FIXTURE_MESSAGE = "Added apple to the board";

const TOOLS: Tool[] = [
  {
    name: "show_board",
    description: "Show the board of items in a window",
    inputSchema: { type: "object", properties: { title: { type: "string" } } },
    _meta: { ui: { resourceUri: APP_FIXTURE_RESOURCE_URI } },
  },
  {
    name: "add_item",
    description: "Add an item to the board (for the board's app)",
    inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
    _meta: { ui: { resourceUri: APP_FIXTURE_RESOURCE_URI, visibility: ["app"] } },
  },
  {
    name: "admin_reset",
    description: "Empty the board (model only)",
    inputSchema: { type: "object", properties: {} },
    _meta: { ui: { visibility: ["model"] } },
  },
];

export function createAppFixtureServer(): Server {
  const items: string[] = ["pear"];
  const server = new Server(
    { name: "board", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case "show_board": {
        const title = typeof args.title === "string" ? args.title : "Board";
        return {
          content: [{ type: "text", text: `${title}: ${items.join(", ")}` }],
          structuredContent: { title, items: [...items] },
        };
      }
      case "add_item":
        items.push(String(args.item));
        return {
          content: [{ type: "text", text: `added ${String(args.item)}` }],
          structuredContent: { items: [...items] },
        };
      case "admin_reset":
        items.length = 0;
        return { content: [{ type: "text", text: "board emptied" }] };
      default:
        return { isError: true, content: [{ type: "text", text: `Unknown tool ${request.params.name}` }] };
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: [{ uri: APP_FIXTURE_RESOURCE_URI, name: "board", mimeType: "text/html;profile=mcp-app" }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== APP_FIXTURE_RESOURCE_URI) throw new Error(`No resource ${request.params.uri}`);
    return {
      contents: [
        {
          uri: APP_FIXTURE_RESOURCE_URI,
          mimeType: "text/html;profile=mcp-app",
          text: BOARD_HTML,
          _meta: { ui: { csp: { connectDomains: [] }, permissions: { camera: {}, clipboardWrite: {} } } },
        },
      ],
    };
  });
  return server;
}

const BOARD_HTML = `<!doctype html>
<html><body>
<h1 id="status">starting</h1>
<p>Results: <span id="results">0</span></p>
<pre id="result"></pre>
<button id="add">Add apple</button>
<button id="reset">Reset (model only)</button>
<button id="share">Share</button>
<p id="call"></p>
<script>
let nextId = 1;
let results = 0;
const waiting = new Map();
const $ = (id) => document.getElementById(id);
function request(method, params) {
  const id = nextId++;
  parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}
addEventListener("message", (event) => {
  const m = event.data;
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.id !== undefined && !m.method) {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (w) m.error ? w.reject(new Error(m.error.message)) : w.resolve(m.result);
    return;
  }
  if (m.method === "ui/notifications/tool-result") {
    results++;
    $("results").textContent = String(results);
    $("result").textContent = JSON.stringify(m.params.structuredContent);
  }
  if (m.id !== undefined) parent.postMessage({ jsonrpc: "2.0", id: m.id, result: {} }, "*");
});
async function call(name, args) {
  try {
    const r = await request("tools/call", { name, arguments: args });
    const text = r.content.map((c) => c.text).join(" ");
    $("call").textContent = (r.isError ? "error: " : "ok: ") + text;
    return !r.isError;
  } catch (error) {
    $("call").textContent = "error: " + error.message;
    return false;
  }
}
$("add").onclick = async () => {
  if (!(await call("add_item", { item: "apple" }))) return;
  await request("ui/message", { role: "user", content: [{ type: "text", text: ${JSON.stringify(APP_FIXTURE_MESSAGE)} }] });
  parent.postMessage({ type: "notify", payload: { message: "apple added" } }, "*");
  parent.postMessage({ type: "celebrate", payload: { confetti: true } }, "*");
};
$("reset").onclick = () => call("admin_reset", {});
let shared = 0;
$("share").onclick = async () => {
  shared++;
  const items = JSON.parse($("result").textContent || "{}").items || [];
  await request("ui/update-model-context", {
    content: [{ type: "text", text: ${JSON.stringify(APP_FIXTURE_CONTEXT)} + " #" + shared + ": " + items.join(", ") }],
  });
  $("call").textContent = "shared " + shared;
};
(async () => {
  const init = await request("ui/initialize", {
    appInfo: { name: "board-app", version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: "2026-01-26",
  });
  $("status").textContent = "connected to " + init.hostInfo.name;
  parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");
})();
</script>
</body></html>
`;
