/**
 * Object and array arguments a model sent as JSON text are repaired once,
 * in the real Pi (both lines) with a scripted model, through the proxy: a
 * stdio server whose `inspect` tool wants `filter` (object)
 * and `ids` (array) and returns the arguments it received. The server gets
 * the parsed values and the result starts with a short note; a `label`
 * whose schema is string stays the text it was, and text inside a repaired
 * object is not parsed again. (A direct tool's arguments are checked by Pi
 * itself against the declared schema before the extension sees them, on both
 * lines, so there Pi answers first; the runtime's direct path repairs too,
 * for hosts that do not check: packages/runtime/test/calls/repair-arguments.test.ts.)
 */

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { sdkEsm } from "../tools/direct-tools-project.js";

const INSPECT_SERVER = `
import { Server } from ${JSON.stringify(path.join(sdkEsm, "server/index.js"))};
import { StdioServerTransport } from ${JSON.stringify(path.join(sdkEsm, "server/stdio.js"))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(path.join(sdkEsm, "types.js"))};
const server = new Server({ name: "shop", version: "1.0.0" }, { capabilities: { tools: {} } });
const inputSchema = {
  type: "object",
  properties: { filter: { type: "object" }, ids: { type: "array", items: { type: "number" } }, label: { type: "string" } },
};
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: "inspect", description: "Inspect orders matching a filter", inputSchema }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: "received " + JSON.stringify(request.params.arguments) }],
}));
await server.connect(new StdioServerTransport());
`;

const sent = {
  filter: JSON.stringify({ state: "open", nested: '{"a":1}' }),
  ids: "[1, 2]",
  label: '{"kept":"as text"}',
};
const received = `received ${JSON.stringify({
  filter: { state: "open", nested: '{"a":1}' },
  ids: [1, 2],
  label: '{"kept":"as text"}',
})}`;

describe.each(piHosts())("$label", (host) => {
  it("parses object and array arguments sent as JSON text once, says so, and leaves string properties alone", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ join }) => ({
        mcpServers: {
          shop: { command: process.execPath, args: [join("shop.mjs")] },
        },
      }),
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "shop_inspect", args: sent } } },
        { toolCall: { name: "mcp", arguments: { tool: "shop_inspect", args: { ids: [3] } } } },
        { text: "Done." },
      ],
    });
    await writeFile(project.join("shop.mjs"), INSPECT_SERVER);

    const run = await project.run("Inspect the open orders.", { timeoutMs: 120_000 });

    expect(run.code, run.stderr).toBe(0);
    const [proxied, clean] = toolResultTexts(run.requests[2]!);
    expect(proxied).toContain(received);
    expect(proxied).toMatch(
      /^Note: "filter" \(object\), "ids" \(array\) arrived as JSON text and were parsed once/,
    );
    expect(clean).toBe(`received ${JSON.stringify({ ids: [3] })}`);
  }, 180_000);
});
