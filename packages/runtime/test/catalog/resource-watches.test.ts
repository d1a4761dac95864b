/**
 * Resource watches through the runtime against real in-process SDK servers:
 * subscribe, the notice and the next-turn note on an update, a server
 * without subscriptions, re-subscribing after a reconnect, unsubscribing on
 * unwatch and at shutdown.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectInMemory, type ManualClock, manualClock } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AdapterRuntime, headlessHost } from "../../src/index.js";
import { stdioDefinition } from "../definitions.js";

const NOTE = "note://todo";

/** What every server instance of a test was asked, in order. */
interface Wire {
  log: string[];
  servers: McpServer[];
}

function docsServer(wire: Wire, subscribe = true): McpServer {
  const server = new McpServer(
    { name: "docs", version: "1.0.0" },
    { capabilities: { resources: subscribe ? { subscribe: true } : {} } },
  );
  server.registerResource("todo", NOTE, { mimeType: "text/plain" }, async () => ({
    contents: [{ uri: NOTE, text: "buy milk" }],
  }));
  if (subscribe) {
    server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
      wire.log.push(`subscribe ${request.params.uri}`);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      wire.log.push(`unsubscribe ${request.params.uri}`);
      return {};
    });
  }
  wire.servers.push(server);
  return server;
}

let open: AdapterRuntime | undefined;
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
});

function runtime(options: { subscribe?: boolean; clock?: ManualClock } = {}) {
  const wire: Wire = { log: [], servers: [] };
  const notices: string[] = [];
  open = new AdapterRuntime({
    servers: [stdioDefinition("docs")],
    host: headlessHost({ notify: (message) => notices.push(message) }),
    ...(options.clock
      ? { lifecycle: { idleTimeoutMin: 1, now: options.clock.now, timers: options.clock.timers } }
      : {}),
    connect: async (definition, signal) =>
      connectServer(
        definition,
        {
          transport: await connectInMemory(docsServer(wire, options.subscribe).server),
          ...(options.clock ? { now: options.clock.now } : {}),
        },
        signal,
      ),
  });
  return { r: open, wire, notices };
}

const updated = (server: McpServer) => server.server.sendResourceUpdated({ uri: NOTE });

describe("resource watches", () => {
  it("subscribes; an update shows a notice and one note for the next turn, never the content", async () => {
    const { r, wire, notices } = runtime();
    expect(r.turnNotes.take()).toEqual([]);
    await r.watches.watch("docs", NOTE);
    expect(wire.log).toEqual([`subscribe ${NOTE}`]);
    expect(r.watches.list()).toEqual([{ server: "docs", uri: NOTE, updates: 0 }]);

    await updated(wire.servers[0]!);
    await updated(wire.servers[0]!);
    await vi.waitFor(() => expect(r.watches.list()[0]?.updates).toBe(2));
    expect(notices).toEqual([`MCP resource updated: docs · ${NOTE}`, `MCP resource updated: docs · ${NOTE}`]);
    // Two updates before the next turn are one line; the content is not in it.
    const notes = r.turnNotes.take();
    expect(notes).toEqual([`MCP resource changed: docs · ${NOTE} (read it again to see the new content)`]);
    expect(notes.join()).not.toContain("buy milk");
    expect(r.turnNotes.take()).toEqual([]);
  });

  it("an update's time is read on the session's clock (lifecycle.now), not the process's", async () => {
    const clock = manualClock(5_000);
    const { r, wire } = runtime({ clock });
    await r.watches.watch("docs", NOTE);
    await updated(wire.servers[0]!);
    await vi.waitFor(() => expect(r.watches.list()[0]?.updates).toBe(1));
    expect(r.watches.list()[0]?.lastUpdateAt).toBe(5_000);
  });

  it("a server without subscriptions says so, and nothing is watched", async () => {
    const { r, wire } = runtime({ subscribe: false });
    await expect(r.watches.watch("docs", NOTE)).rejects.toThrow(
      'MCP server "docs" does not offer resource subscriptions (resources.subscribe), so its resources cannot be watched',
    );
    expect(wire.log).toEqual([]);
    expect(r.watches.list()).toEqual([]);
  });

  it("an unknown server is named with the configured ones", async () => {
    const { r } = runtime();
    await expect(r.watches.watch("nope", NOTE)).rejects.toThrow(
      'Unknown MCP server "nope" (configured: docs)',
    );
  });

  it("subscribes again on the new connection after a reconnect, and hears its updates", async () => {
    const { r, wire, notices } = runtime();
    await r.watches.watch("docs", NOTE);
    await r.reconnect("docs");
    await vi.waitFor(() => expect(wire.log).toEqual([`subscribe ${NOTE}`, `subscribe ${NOTE}`]));
    expect(wire.servers).toHaveLength(2);
    await updated(wire.servers[1]!);
    await vi.waitFor(() => expect(notices).toEqual([`MCP resource updated: docs · ${NOTE}`]));
  });

  it("a watched lazy server closed for being idle connects again and is subscribed again", async () => {
    const clock = manualClock();
    const { r, wire } = runtime({ clock });
    await r.watches.watch("docs", NOTE);
    clock.advance(60_000); // the idle timeout (1 minute) with no request
    await vi.waitFor(() => expect(wire.log).toEqual([`subscribe ${NOTE}`, `subscribe ${NOTE}`]));
    expect(wire.servers).toHaveLength(2);
    expect(r.listings.summaries().find((s) => s.name === "docs")?.state).toBe("connected");
  });

  it("unwatching a resource the session read keeps its subscription (for the changed-since note)", async () => {
    const { r, wire } = runtime();
    await r.call("docs_resource_todo", {});
    await r.watches.watch("docs", NOTE);
    expect(await r.watches.unwatch("docs", NOTE)).toBe(true);
    expect(wire.log.filter((l) => l.startsWith("unsubscribe"))).toEqual([]);
  });

  it("unwatch unsubscribes and later updates are not heard; shutdown unsubscribes the rest", async () => {
    const { r, wire, notices } = runtime();
    await r.watches.watch("docs", NOTE);
    await r.watches.watch("docs", "note://other");
    expect(await r.watches.unwatch("docs", NOTE)).toBe(true);
    expect(await r.watches.unwatch("docs", NOTE)).toBe(false);
    expect(wire.log).toEqual([`subscribe ${NOTE}`, "subscribe note://other", `unsubscribe ${NOTE}`]);
    await updated(wire.servers[0]!);
    // An update of the watch still held, sent after it, shows that the first one was heard and dropped.
    await wire.servers[0]!.server.sendResourceUpdated({ uri: "note://other" });
    await vi.waitFor(() => expect(notices).toEqual(["MCP resource updated: docs · note://other"]));
    expect(r.turnNotes.take()).toHaveLength(1);

    await r.shutdown();
    open = undefined;
    expect(wire.log.at(-1)).toBe("unsubscribe note://other");
    expect(r.watches.list()).toEqual([]);
  });
});
