/**
 * The inbound seam and notifications against real servers: the client-features
 * fixture (SDK v1 server) over stdio and Streamable HTTP, reached by the SDK v1
 * client (`protocol: "legacy"`) and by the SDK v2 client (`auto` over HTTP, which
 * falls back to the 2025 handshake inside v2), and an SDK v2 server on
 * 2026-07-28, where server→client requests travel as `input_required` results.
 */
import {
  clientFeaturesServerPath,
  createClientFeaturesServer,
  serverEverythingPath,
  serveStreamableHttp,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClientHandlers,
  connectServer,
  type ServerConnection,
  type ServerNotification,
} from "../src/index.js";
import { definition, startV2Http, text, v2ServerPath } from "./helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const seen: string[] = [];
const handlers: ClientHandlers = {
  elicitation: async (params, context) => {
    seen.push(`elicitation from ${context.server}: ${params.message}`);
    return { action: "accept", content: { name: "Ada" } };
  },
  sampling: async (params, context) => {
    seen.push(`sampling from ${context.server}: ${params.messages.length} message(s)`);
    return {
      role: "assistant",
      content: { type: "text", text: "hello from the model" },
      model: "test-model",
    };
  },
  roots: async (context) => {
    seen.push(`roots from ${context.server}`);
    return [{ uri: "file:///work/project", name: "project" }];
  },
};
const failing: ClientHandlers = {
  elicitation: async () => {
    throw new Error("the user closed the dialog");
  },
  roots: async () => [],
};

type Route = { label: string; start: () => Promise<{ url?: string; close: () => Promise<void> }> } & (
  | { transport: "stdio"; protocol: "legacy" }
  | { transport: "http"; protocol: "legacy" | "auto" }
);

const routes: Route[] = [
  {
    label: "SDK v1 client over stdio",
    transport: "stdio",
    protocol: "legacy",
    start: async () => ({ close: async () => {} }),
  },
  {
    label: "SDK v1 client over Streamable HTTP",
    transport: "http",
    protocol: "legacy",
    start: () => serveStreamableHttp(() => createClientFeaturesServer()),
  },
  {
    label: "SDK v2 client (auto → 2025 era) over Streamable HTTP",
    transport: "http",
    protocol: "auto",
    start: () => serveStreamableHttp(() => createClientFeaturesServer()),
  },
];

describe.each(routes)("client features: $label", (route) => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  async function connect(withHandlers?: ClientHandlers) {
    const server = await route.start();
    stop = server.close;
    const def =
      route.transport === "stdio"
        ? definition({
            name: "features",
            transport: "stdio",
            command: process.execPath,
            args: [clientFeaturesServerPath],
            protocol: route.protocol,
          })
        : definition({ name: "features", transport: "http", url: server.url, protocol: route.protocol });
    open = await connectServer(def, withHandlers ? { handlers: withHandlers } : {});
    return open;
  }

  it("delivers every notification kind to onNotification, and progress to onProgress", async () => {
    const connection = await connect();
    const events: ServerNotification[] = [];
    const unsubscribe = connection.onNotification((n) => events.push(n));
    const progress: number[] = [];
    const result = await connection.callTool(
      "notify_all",
      {},
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(text(result)).toBe("sent");
    expect(events.map((e) => e.kind)).toEqual([
      "tools/list_changed",
      "prompts/list_changed",
      "resources/list_changed",
      "resources/updated",
      "log",
      "progress",
      "progress",
    ]);
    expect(events[3]).toEqual({ kind: "resources/updated", uri: "fixture://note" });
    expect(events[4]).toEqual({ kind: "log", level: "info", logger: "fixture", data: { hello: "world" } });
    expect(events[6]).toMatchObject({ kind: "progress", progress: 2, total: 2, message: "step 2" });
    expect(progress).toEqual([1, 2]);
    unsubscribe();
    await connection.callTool("notify_all", {});
    expect(events).toHaveLength(7); // unsubscribed
  });

  it("answers elicitation, sampling and roots through the handlers", async () => {
    seen.length = 0;
    const connection = await connect(handlers);
    expect(JSON.parse(text(await connection.callTool("elicit", { message: "Name?" })))).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    expect(JSON.parse(text(await connection.callTool("sample", { prompt: "Hi" })))).toMatchObject({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: "hello from the model" },
    });
    expect(JSON.parse(text(await connection.callTool("list_roots", {})))).toEqual({
      roots: [{ uri: "file:///work/project", name: "project" }],
    });
    expect(seen).toEqual([
      "elicitation from features: Name?",
      "sampling from features: 1 message(s)",
      "roots from features",
    ]);
  });

  it("tells the server its roots changed", async () => {
    const connection = await connect(handlers);
    expect(text(await connection.callTool("roots_changed_count", {}))).toBe("0");
    await connection.notifyRootsChanged();
    await connection.notifyRootsChanged();
    expect(text(await connection.callTool("roots_changed_count", {}))).toBe("2");
  });

  it("turns a failing handler into a JSON-RPC error for the server and keeps the connection", async () => {
    const connection = await connect(failing);
    const refused = await connection.callTool("elicit", {});
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^error -32603: /);
    expect(text(refused)).toContain(
      "client handler for elicitation/create failed: the user closed the dialog",
    );
    expect(connection.closed).toBe(false);
    expect(JSON.parse(text(await connection.callTool("list_roots", {})))).toEqual({ roots: [] });
  });

  it("declares exactly the capabilities it has handlers for", async () => {
    const bare = await connect();
    expect(JSON.parse(text(await bare.callTool("client_capabilities", {})))).toEqual({});
    await bare.close();
    const full = await connect({ ...handlers, elicitationModes: ["form", "url"] });
    expect(JSON.parse(text(await full.callTool("client_capabilities", {})))).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: { listChanged: true },
    });
  });

  it("with only a roots handler, declares only roots and answers nothing else", async () => {
    const connection = await connect({ roots: handlers.roots });
    expect(JSON.parse(text(await connection.callTool("client_capabilities", {})))).toEqual({
      roots: { listChanged: true },
    });
    // This server asks anyway (the SDK does not hold servers to declared capabilities); the client refuses.
    const elicit = await connection.callTool("elicit", {});
    expect(elicit.isError).toBe(true);
    expect(text(elicit)).toContain("-32601");
    expect(JSON.parse(text(await connection.callTool("list_roots", {})))).toEqual({
      roots: [{ uri: "file:///work/project", name: "project" }],
    });
  });
});

describe("client features with an SDK v2 server (input_required)", () => {
  const expectedAnswers = {
    name: { action: "accept", content: { name: "Ada" } },
    model: {
      role: "assistant",
      content: { type: "text", text: "hello from the model" },
      model: "test-model",
    },
    roots: { roots: [{ uri: "file:///work/project", name: "project" }] },
  };
  const expectedSeen = [
    "elicitation from modern: Who are you?",
    "sampling from modern: 1 message(s)",
    "roots from modern",
  ];

  it("on 2026-07-28 over HTTP, the v2 client completes an input_required result through the handlers", async () => {
    await using server = await startV2Http();
    seen.length = 0;
    open = await connectServer(
      definition({ name: "modern", transport: "http", url: server.url, protocol: "auto" }),
      { handlers },
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect(JSON.parse(text(await open.callTool("ask", {})))).toEqual(expectedAnswers);
    expect(seen).toEqual(expectedSeen);
  });

  it("on 2026-07-28 over stdio, the same round trip works (probed on a sibling process)", async () => {
    seen.length = 0;
    open = await connectServer(
      definition({
        name: "modern",
        transport: "stdio",
        command: process.execPath,
        args: [v2ServerPath],
        protocol: "auto",
      }),
      { handlers, eraCache: new Map() },
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect(JSON.parse(text(await open.callTool("ask", {})))).toEqual(expectedAnswers);
    expect(seen).toEqual(expectedSeen);
  });

  it("on the 2025 wire (protocol legacy, SDK v1 client), the server's shim sends real requests to the same handlers", async () => {
    seen.length = 0;
    open = await connectServer(
      definition({ name: "modern", transport: "stdio", command: process.execPath, args: [v2ServerPath] }),
      { handlers },
    );
    expect(open.protocolVersion).toBe("2025-11-25");
    expect(JSON.parse(text(await open.callTool("ask", {})))).toEqual(expectedAnswers);
    expect(seen).toEqual(expectedSeen);
  });

  it.each(["stdio", "http"] as const)(
    "on 2026-07-28 over %s, notifications arrive, list changes on the listen stream",
    async (transport) => {
      await using server = transport === "http" ? await startV2Http() : undefined;
      open = await connectServer(
        server
          ? definition({ name: "modern", transport: "http", url: server.url, protocol: "auto" })
          : definition({
              name: "modern",
              transport: "stdio",
              command: process.execPath,
              args: [v2ServerPath],
              protocol: "auto",
            }),
        { eraCache: new Map() },
      );
      expect(open.protocolVersion).toBe("2026-07-28");
      const events: ServerNotification[] = [];
      open.onNotification((n) => events.push(n));
      expect(text(await open.callTool("notify", {}))).toBe("sent");
      await expect.poll(() => events.map((e) => e.kind).sort()).toEqual(["log", "tools/list_changed"]);
      expect(events.find((e) => e.kind === "log")).toEqual({
        kind: "log",
        level: "warning",
        logger: "v2",
        data: "heads up",
      });
    },
  );

  it("on 2026-07-28 without handlers, the call fails with a message naming the server", async () => {
    await using server = await startV2Http();
    open = await connectServer(
      definition({ name: "modern", transport: "http", url: server.url, protocol: "auto" }),
    );
    const error = await open.callTool("ask", {}).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^modern: tools\/call ask failed: /);
    expect(error?.message).toContain("client capabilities do not declare the required capability");
  });
});

describe("capabilities follow handlers (server-everything over stdio)", () => {
  const everything = (protocol: "legacy" | "auto") =>
    definition({
      name: "everything",
      transport: "stdio",
      command: process.execPath,
      args: [serverEverythingPath],
      protocol,
    });

  it("lists more tools once elicitation, sampling and roots are declared", async () => {
    const names = async (withHandlers?: ClientHandlers) => {
      open = await connectServer(everything("legacy"), withHandlers ? { handlers: withHandlers } : {});
      const tools = (await open.listTools()).map((t) => t.name);
      await open.close();
      return tools;
    };
    const bare = await names();
    const full = await names({ ...handlers, elicitationModes: ["form", "url"] });
    expect(bare).toHaveLength(13);
    expect(full).toHaveLength(17);
    expect(full.filter((name) => !bare.includes(name)).sort()).toEqual([
      "get-roots-list",
      "trigger-elicitation-request",
      "trigger-sampling-request",
      "trigger-url-elicitation",
    ]);
    // Form-only elicitation (the default) leaves the URL-mode tool out.
    expect(await names(handlers)).toHaveLength(16);
  });
});
