/**
 * What the direct-tools e2e files share: server-everything behind a pid-recording
 * wrapper, two small stdio servers (one adds a tool mid-session, one lists the
 * names in a file), a Pi project around server-everything, and one Pi session
 * in `--mode rpc` prompted several times.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { ChatRequest, ScriptEntry } from "@pi-mcp-adapter/test-kit";
import { everythingWrapperScript } from "../../src/fixtures.js";
import type { PiHost } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const require = createRequire(import.meta.url);
// The SDK's ESM build (require.resolve finds the CommonJS one next to it).
export const sdkEsm = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/sdk/server/index.js")),
  "..",
  "..",
  "esm",
);

/** server-everything on stdio, recording each start as a file named by its pid in `FIXTURE_PID_DIR`. */
export const EVERYTHING_WRAPPER = everythingWrapperScript();

/** A stdio server whose `grow` tool adds `harvest` and sends `tools/list_changed`. */
export const FARM_SERVER = `
import { Server } from ${JSON.stringify(path.join(sdkEsm, "server/index.js"))};
import { StdioServerTransport } from ${JSON.stringify(path.join(sdkEsm, "server/stdio.js"))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(path.join(sdkEsm, "types.js"))};
const server = new Server({ name: "farm", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
const tools = [{ name: "grow", description: "Grow a crop", inputSchema: { type: "object", properties: {} } }];
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "grow" && tools.length === 1) {
    tools.push({ name: "harvest", description: "Harvest the crop", inputSchema: { type: "object", properties: {} } });
    await server.sendToolListChanged();
  }
  return { content: [{ type: "text", text: request.params.name + " done" }] };
});
await server.connect(new StdioServerTransport());
`;

/** A stdio server without list-change notifications whose tools are the names in `MENU_FILE`, read on each listing. */
export const MENU_SERVER = `
import { readFileSync } from "node:fs";
import { Server } from ${JSON.stringify(path.join(sdkEsm, "server/index.js"))};
import { StdioServerTransport } from ${JSON.stringify(path.join(sdkEsm, "server/stdio.js"))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(path.join(sdkEsm, "types.js"))};
const server = new Server({ name: "menu", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: JSON.parse(readFileSync(process.env.MENU_FILE, "utf8")).map((name) => ({
    name, description: "Dish " + name, inputSchema: { type: "object", properties: {} },
  })),
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({ content: [{ type: "text", text: request.params.name + " served" }] }));
await server.connect(new StdioServerTransport());
`;

/** Names a request declares that belong to us: the proxy and MCP tools. */
export function mcpNames(request: ChatRequest | undefined, ...prefixes: string[]): string[] {
  return (request?.tools ?? [])
    .map((t) => t.function.name)
    .filter((n) => n === "mcp" || prefixes.some((p) => n.startsWith(p)))
    .sort();
}

export function everythingProject(
  host: PiHost,
  server: Record<string, unknown>,
  steps: ScriptEntry[],
  settings = {},
) {
  return createPiProject({
    host,
    adapterConfig: ({ join, pidDir }) => ({
      settings,
      mcpServers: {
        everything: {
          command: process.execPath,
          args: [join("everything.mjs")],
          env: { FIXTURE_PID_DIR: pidDir },
          ...server,
        },
      },
    }),
    steps,
  });
}

/**
 * Prompts one Pi session in `--mode rpc`, one after the other: each until
 * `agent_end`, a slash command until its first notice. A function runs
 * first and returns the prompt (to change a file between prompts, say).
 * Returns the notices shown.
 */
export async function promptInOneSession(
  project: PiProject,
  prompts: (string | (() => Promise<string>))[],
): Promise<string[]> {
  const notices: string[] = [];
  const child = project.rpc();
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill(), 120_000);
  try {
    let next = 0;
    let current = "";
    /** Sends the next prompt; false when there is none. */
    const advance = async () => {
      const entry = prompts[next++];
      if (entry === undefined) return false;
      current = typeof entry === "string" ? entry : await entry();
      send({ id: `p${next}`, type: "prompt", message: current });
      return true;
    };
    await advance();
    let done = false;
    for await (const rpc of rpcMessages(child.stdout)) {
      const message = rpc as { type?: string; id?: string; method?: string; message?: string };
      if (message.type === "extension_ui_request" && message.method === "notify") {
        notices.push(message.message ?? "");
        if (current.startsWith("/")) done = !(await advance());
      } else if (message.type === "extension_ui_request" && message.id) {
        send({ type: "extension_ui_response", id: message.id, cancelled: true });
      } else if (message.type === "agent_end") {
        done = !(await advance());
      }
      if (done) break;
    }
    if (!done) throw new Error(`Pi ended before the last prompt was answered:\n${stderr}`);
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  return notices;
}
