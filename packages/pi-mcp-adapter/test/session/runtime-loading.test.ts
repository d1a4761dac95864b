/**
 * When the extension makes a session's runtime: at session start only when
 * something needs it then, else once the first model request is on its way or
 * at first use. The real extension factory and a real stdio fixture server;
 * Pi's API is a stand-in that keeps the tools, the handlers and the events the
 * extension emits (a runtime publishes its first status snapshot when made).
 * `vi.mock` only counts imports of the runtime's index; the module is the real one.
 * apps/e2e runs the same path in the real Pi (print mode: walking-skeleton,
 * lifecycle-eager, status-v1).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMcpAdapter } from "../../src/pi/extension.js";
import { MCP_STATUS_EVENT } from "../../src/pi/status/status-v1.js";

const imports = vi.hoisted(() => ({ runtimeIndex: 0 }));
vi.mock("@pi-mcp-adapter/runtime", async (importOriginal) => {
  imports.runtimeIndex++;
  return importOriginal();
});

type Handler = (event: unknown, ctx: unknown) => unknown;
interface ProxyTool {
  execute(id: string, params: unknown, signal: undefined, update: undefined, ctx: unknown): Promise<unknown>;
}

let dir: TempDir;
let agentDir: string | undefined;
beforeEach(async () => {
  dir = await createTempDir();
  agentDir = process.env.PI_CODING_AGENT_DIR;
  // The metadata cache and the user's config live in the agent dir: an empty one of the test's own.
  process.env.PI_CODING_AGENT_DIR = dir.join("agent");
});
afterEach(async () => {
  if (agentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = agentDir;
  await dir.remove();
});

/** Loads the extension with `lifecycle` for its one server, as Pi does, and starts a session. */
async function startSession(lifecycle: "lazy" | "eager", hasUI: boolean) {
  const handlers = new Map<string, Handler[]>();
  const tools: { name: string }[] = [];
  const snapshots: unknown[] = [];
  const pi = {
    registerTool: (tool: { name: string }) => tools.push(tool),
    registerCommand: () => {},
    registerFlag: () => {},
    getFlag: () => undefined,
    getAllTools: () => tools,
    on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
    events: {
      on: () => () => {},
      emit: (event: string, data: unknown) => {
        if (event === MCP_STATUS_EVENT) snapshots.push(data);
      },
    },
  } as unknown as ExtensionAPI;
  // The session's directory is Pi's own, as in Pi (the startup snapshot is read for it); an inline config reads no files.
  const ctx = {
    cwd: process.cwd(),
    hasUI,
    ui: {
      notify: () => {},
      setStatus: () => {},
      setWidget: () => {},
      theme: { fg: (_c: string, t: string) => t },
    },
  } as unknown as ExtensionContext;
  const fire = async (event: string) => {
    for (const handler of handlers.get(event) ?? []) await handler({ type: event }, ctx);
  };
  const config = {
    mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath], lifecycle } },
  };
  await createMcpAdapter({ config })(pi);
  await fire("session_start");
  await fire("before_agent_start");
  const proxy = tools.find((t) => t.name === "mcp") as unknown as ProxyTool;
  return { fire, snapshots, ctx, proxy, shutdown: () => fire("session_shutdown") };
}

/** Resolves once `check` holds (the extension makes its runtime in a later event-loop turn). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/** A request sent with fetch, as Pi sends a model request, to a local server that answers at once. */
async function postToLocalServer(): Promise<void> {
  const server = createServer((req, res) => req.resume().on("end", () => res.end("{}")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" })).text();
  } finally {
    server.close();
  }
}

describe("the session's runtime", () => {
  it("in print mode with only lazy servers, is made once the first model request has left", async () => {
    const session = await startSession("lazy", false);
    try {
      // Nothing made a runtime yet, nor loaded the runtime's index: no status snapshot was published.
      expect(imports.runtimeIndex).toBe(0);
      expect(session.snapshots).toEqual([]);
      await session.fire("before_provider_request");
      // The request leaves through fetch (as Pi sends it): then, not before, the runtime is made.
      await postToLocalServer();
      await until(() => session.snapshots.length > 0);
      const result = (await session.proxy.execute(
        "1",
        { search: "echo" },
        undefined,
        undefined,
        session.ctx,
      )) as {
        content: { text: string }[];
      };
      expect(result.content[0]?.text).toContain("fixture_echo");
    } finally {
      await session.shutdown();
    }
  });

  it("is made when the model's response begins, for a provider that sends without fetch", async () => {
    const session = await startSession("lazy", false);
    try {
      await session.fire("before_provider_request");
      await session.fire("after_provider_response");
      await until(() => session.snapshots.length > 0);
    } finally {
      await session.shutdown();
    }
  });

  it("in print mode, is made by the first call when no model request came first", async () => {
    const session = await startSession("lazy", false);
    try {
      const result = (await session.proxy.execute("1", {}, undefined, undefined, session.ctx)) as {
        content: { text: string }[];
      };
      expect(result.content[0]?.text).toContain("fixture");
      expect(session.snapshots.length).toBeGreaterThan(0);
    } finally {
      await session.shutdown();
    }
  });

  it("is made at session start for an eager server, and where a UI shows its footer", async () => {
    for (const [lifecycle, hasUI] of [
      ["eager", false],
      ["lazy", true],
    ] as const) {
      const session = await startSession(lifecycle, hasUI);
      try {
        // Made before any model request: its first snapshot follows without one.
        await until(() => session.snapshots.length > 0);
      } finally {
        await session.shutdown();
      }
    }
  });
});
