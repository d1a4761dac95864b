/**
 * The viewer's refusals are `UiError`s with a code a host branches on: a
 * `show` after the viewer closed, and an app whose `ui://` resource has no
 * HTML (a real in-memory MCP server answering the read with no contents).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { APP_FIXTURE_RESOURCE_URI, connectInMemory } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { UiError, UiViewer } from "../src/index.js";
import { startBoardViewer } from "./board-viewer.js";

const call = {
  serverName: "board",
  toolName: "show_board",
  resourceUri: APP_FIXTURE_RESOURCE_URI,
  args: {},
  result: { content: [{ type: "text" as const, text: "ok" }] },
};

describe("UiViewer errors", () => {
  it("refuses a show after close with viewer_closed", async () => {
    const started = await startBoardViewer([]);
    await started.close();
    const error = await started.viewer.show(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UiError);
    expect(error).toMatchObject({ code: "viewer_closed", message: "The MCP Apps viewer is shut down" });
  });

  it("refuses an app resource without HTML with no_html_content, naming the resource and server", async () => {
    const server = new Server({ name: "empty-app", version: "1.0.0" }, { capabilities: { resources: {} } });
    server.setRequestHandler(ReadResourceRequestSchema, async () => ({ contents: [] }));
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(await connectInMemory(server));
    const viewer = new UiViewer(
      {
        readResource: async (_s, uri) => (await client.readResource({ uri })) as never,
        callTool: async () => ({}) as never,
      },
      { consent: "once-per-server", open: async () => {} },
    );
    try {
      const error = await viewer.show(call).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UiError);
      expect(error).toMatchObject({
        code: "no_html_content",
        message: `UI resource ${APP_FIXTURE_RESOURCE_URI} of board has no HTML content`,
      });
    } finally {
      await viewer.close();
      await client.close();
    }
  });
});
