/**
 * The environment a host hands in (`createMcpAdapter({ environment })`, the
 * CLI's `CliContext`) decides which agent dir the Pi extension and the CLI
 * read, with `PI_CODING_AGENT_DIR` pointing somewhere else. The real
 * extension factory, the real CLI commands and a real stdio fixture server;
 * Pi's API is a stand-in that keeps the registered tools and handlers
 * (as in runtime-loading.test.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { type AdapterEnvironment, processEnvironment } from "@pi-mcp-adapter/core";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CliContext, type CliOptions } from "../../src/cli/cli-context.js";
import { listCli } from "../../src/cli/status-cli.js";
import { createMcpAdapter } from "../../src/pi/extension.js";

let dir: TempDir;
let environment: AdapterEnvironment;
beforeEach(async () => {
  dir = await createTempDir();
  const serverFile = (name: string) =>
    JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [stdioFixtureServerPath] } } });
  for (const d of ["handed-agent", "ambient-agent", "project", "home"]) await mkdir(dir.join(d));
  await writeFile(dir.join("handed-agent", "mcp-adapter.json"), serverFile("from-handed"));
  await writeFile(dir.join("ambient-agent", "mcp-adapter.json"), serverFile("from-ambient"));
  vi.stubEnv("PI_CODING_AGENT_DIR", dir.join("ambient-agent"));
  environment = processEnvironment({ agentDir: dir.join("handed-agent"), home: dir.join("home") });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await dir.remove();
});

interface Tool {
  name: string;
  description: string;
  execute(id: string, params: unknown, signal: undefined, update: undefined, ctx: unknown): Promise<unknown>;
}

describe("the environment the host hands in", () => {
  it("the Pi extension lists and calls the servers of the handed-in agent dir", async () => {
    type Handler = (event: unknown, ctx: unknown) => unknown;
    const handlers = new Map<string, Handler[]>();
    const tools: Tool[] = [];
    const pi = {
      registerTool: (tool: Tool) => tools.push(tool),
      registerCommand: () => {},
      registerFlag: () => {},
      getFlag: () => undefined,
      getAllTools: () => tools,
      on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
      events: { on: () => () => {}, emit: () => {} },
    } as unknown as ExtensionAPI;
    const ui = {
      notify: () => {},
      setStatus: () => {},
      setWidget: () => {},
      theme: { fg: (_c: string, t: string) => t },
    };
    const ctx = { cwd: dir.join("project"), hasUI: false, ui } as unknown as ExtensionContext;
    const fire = async (event: string) => {
      for (const handler of handlers.get(event) ?? []) await handler({ type: event }, ctx);
    };
    await createMcpAdapter({ environment })(pi);
    try {
      const proxy = tools.find((t) => t.name === "mcp");
      // The startup snapshot's roster, in the proxy tool's description.
      expect(proxy?.description).toContain("from-handed");
      expect(proxy?.description).not.toContain("from-ambient");
      await fire("session_start");
      const result = (await proxy?.execute("1", {}, undefined, undefined, ctx)) as {
        content: { text: string }[];
      };
      expect(result.content[0]?.text).toContain("from-handed");
      expect(result.content[0]?.text).not.toContain("from-ambient");
    } finally {
      await fire("session_shutdown");
    }
  });

  it("the CLI's runtime and its listing read the handed-in agent dir", async () => {
    const options: CliOptions = {
      cwd: dir.join("project"),
      json: true,
      approveProject: false,
      discoverHostConfigs: false,
      list: false,
      adopt: [],
      add: [],
      createMcpJson: false,
      copyPiServers: false,
      project: false,
      yes: false,
      addFlags: {},
      commandLine: [],
    };
    const ctx = new CliContext(options, environment);
    try {
      expect((await ctx.runtime()).listings.summaries().map((s) => s.name)).toEqual(["from-handed"]);
      expect(JSON.stringify((await listCli(ctx, [])).json)).toContain("from-handed");
      expect(JSON.stringify((await listCli(ctx, [])).json)).not.toContain("from-ambient");
    } finally {
      await ctx.close();
    }
  });
});
