/**
 * Direct tools in the real Pi, both lines, with a scripted model:
 * (1) a cold cache: the first request already declares the listed tools of
 *     server-everything (listed by the session before its first prompt), and a
 *     direct call returns the sum;
 * (2) a warm cache: the same surface with no server process started;
 * (3) a server that adds a tool and sends `tools/list_changed`: the next
 *     prompt can call it directly; with `freezeDirectTools` it is not
 *     declared, but proxy search finds it;
 * (4) `directTools: "search"`: absent from the first request, declared once
 *     our search returns it;
 * (5) approval and the output guard apply to direct calls;
 * and the settings around them: `disableProxyTool`, `namespaceProxyTools`,
 * `deferWithMissingMetadata`, `strictDirectToolArguments`, `mcp({ connect })`.
 */
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { type ChatRequest, recordedPids, type ScriptEntry, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { everythingWrapperScript } from "../../src/fixtures.js";
import { type PiHost, piHosts, toolSearchExtension } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const require = createRequire(import.meta.url);
// The SDK's ESM build (require.resolve finds the CommonJS one next to it).
const sdkEsm = path.join(
  path.dirname(require.resolve("@modelcontextprotocol/sdk/server/index.js")),
  "..",
  "..",
  "esm",
);

/** server-everything on stdio, recording each start as a file named by its pid in `FIXTURE_PID_DIR`. */
const EVERYTHING_WRAPPER = everythingWrapperScript();

/** A stdio server whose `grow` tool adds `harvest` and sends `tools/list_changed`. */
const FARM_SERVER = `
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
const MENU_SERVER = `
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
function mcpNames(request: ChatRequest | undefined, ...prefixes: string[]): string[] {
  return (request?.tools ?? [])
    .map((t) => t.function.name)
    .filter((n) => n === "mcp" || prefixes.some((p) => n.startsWith(p)))
    .sort();
}

function everythingProject(
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
async function promptInOneSession(
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

describe.each(piHosts())("$label", (host) => {
  it("(1) cold and (2) warm cache: the first request declares exactly the listed direct tools; warm spawns nothing", async () => {
    await using project = await everythingProject(host, { directTools: ["get-sum", "echo"] }, [
      { toolCall: { name: "everything_get_sum", arguments: { a: 2, b: 3 } } },
      { text: "Five." },
      // The warm run answers at once.
      { text: "Hello." },
    ]);
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);

    const cold = await project.run("What is 2 + 3?");
    expect(cold.code, cold.stderr).toBe(0);
    expect(mcpNames(cold.requests[0], "everything")).toEqual([
      "everything_echo",
      "everything_get_sum",
      "mcp",
    ]);
    expect(toolResultTexts(cold.requests[1]!)[0]).toContain("5");
    const afterCold = (await recordedPids(project.pidDir)).length;
    expect(afterCold).toBeGreaterThan(0);

    const warm = await project.run("Hi");
    expect(warm.code, warm.stderr).toBe(0);
    expect(mcpNames(warm.requests[0], "everything")).toEqual([
      "everything_echo",
      "everything_get_sum",
      "mcp",
    ]);
    expect((await recordedPids(project.pidDir)).length).toBe(afterCold);
  }, 120_000);

  it.each([
    { frozen: false, label: "registers a tool added mid-session for the next prompt" },
    {
      frozen: true,
      label: "with freezeDirectTools keeps the surface, while proxy search finds the new tool",
    },
  ])(
    "(3) tools/list_changed $label",
    async ({ frozen }) => {
      await using project = await createPiProject({
        host,
        adapterConfig: ({ join }) => ({
          settings: { directTools: true, ...(frozen ? { freezeDirectTools: true } : {}) },
          mcpServers: { farm: { command: process.execPath, args: [join("farm.mjs")] } },
        }),
        steps: [
          { toolCall: { name: "farm_grow", arguments: {} } },
          { text: "Grown." },
          frozen
            ? { toolCall: { name: "mcp", arguments: { search: "harvest crop" } } }
            : { toolCall: { name: "farm_harvest", arguments: {} } },
          { text: "Done." },
        ],
      });
      await writeFile(project.join("farm.mjs"), FARM_SERVER);
      await promptInOneSession(project, ["Grow.", "Harvest."]);
      const requests = project.model.requests;
      expect(requests).toHaveLength(4);
      expect(mcpNames(requests[0], "farm")).toEqual(["farm_grow", "mcp"]);
      expect(toolResultTexts(requests[1]!)).toEqual(["grow done"]);
      if (frozen) {
        expect(mcpNames(requests[2], "farm")).toEqual(["farm_grow", "mcp"]);
        expect(toolResultTexts(requests[3]!).at(-1)).toContain("farm_harvest");
      } else {
        expect(mcpNames(requests[2], "farm")).toEqual(["farm_grow", "farm_harvest", "mcp"]);
        expect(toolResultTexts(requests[3]!).at(-1)).toBe("harvest done");
      }
    },
    150_000,
  );

  // Pi 1.x registers these with `exposure: "deferred"` (its tool search finds them too); the 0.7x
  // line registers them and takes them out of the active set. Both declare them after our search.
  it('(4) directTools "search": absent from the first request, declared once our search returns them', async () => {
    await using project = await everythingProject(host, { directTools: "search" }, [
      { toolCall: { name: "mcp", arguments: { search: "sum two numbers" } } },
      { text: "Found it." },
      { toolCall: { name: "everything_get_sum", arguments: { a: 20, b: 22 } } },
      { text: "42." },
    ]);
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    await promptInOneSession(project, ["Find a sum tool.", "Add 20 and 22."]);
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "everything")).toEqual(["mcp"]);
    expect(toolResultTexts(requests[1]!)[0]).toContain("everything_get_sum");
    expect(mcpNames(requests[2], "everything")).toContain("everything_get_sum");
    expect(mcpNames(requests[2], "everything")).not.toContain("everything_echo");
    expect(toolResultTexts(requests[3]!).at(-1)).toContain("42");
  }, 150_000);

  it("(5) approval and the output guard apply to a direct call", async () => {
    await using project = await everythingProject(
      host,
      { directTools: true, approveTools: ["get-sum"] },
      [
        { toolCall: { name: "everything_get_sum", arguments: { a: 1, b: 2 } } },
        { toolCall: { name: "everything_echo", arguments: { message: "word ".repeat(200) } } },
        { text: "Done." },
      ],
      { outputGuard: { maxBytes: 100 } },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Add and echo.");
    expect(run.code, run.stderr).toBe(0);
    const refused = toolResultTexts(run.requests[1]!)[0] ?? "";
    expect(refused).toContain("approval_required");
    expect(refused).not.toContain("is 3");
    const echoed = toolResultTexts(run.requests[2]!)[1] ?? "";
    expect(echoed).toMatch(/\[Output truncated: showing 100 B of [\d.]+ [KiB]+/);
    expect(Buffer.byteLength(echoed)).toBeLessThan(600);
  }, 120_000);

  it("disableProxyTool declares direct tools only; namespaceProxyTools adds mcp__<server> beside mcp", async () => {
    await using project = await everythingProject(host, { directTools: ["echo"] }, [{ text: "Hi." }], {
      disableProxyTool: true,
    });
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Hi");
    expect(run.code, run.stderr).toBe(0);
    expect(mcpNames(run.requests[0], "everything")).toEqual(["everything_echo"]);

    await using wrapped = await everythingProject(
      host,
      {},
      [
        { toolCall: { name: "mcp__everything", arguments: { search: "sum of two numbers" } } },
        { text: "Found." },
      ],
      { namespaceProxyTools: true },
    );
    await writeFile(wrapped.join("everything.mjs"), EVERYTHING_WRAPPER);
    const second = await wrapped.run("Find a sum tool.");
    expect(second.code, second.stderr).toBe(0);
    expect(mcpNames(second.requests[0], "everything", "mcp__")).toEqual(["mcp", "mcp__everything"]);
    expect(toolResultTexts(second.requests[1]!)[0]).toContain("everything_get_sum");
  }, 120_000);

  it("deferWithMissingMetadata: a cold server's direct tools arrive a prompt later, not at start-up", async () => {
    await using project = await everythingProject(
      host,
      { directTools: ["get-sum"] },
      [
        { text: "Later." },
        { toolCall: { name: "everything_get_sum", arguments: { a: 4, b: 5 } } },
        { text: "9." },
      ],
      { deferWithMissingMetadata: true },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    await promptInOneSession(project, ["Hi.", "Add 4 and 5."]);
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "everything")).toEqual(["mcp"]);
    expect(mcpNames(requests[1], "everything")).toEqual(["everything_get_sum", "mcp"]);
    expect(toolResultTexts(requests[2]!).at(-1)).toContain("9");
  }, 150_000);

  it("strictDirectToolArguments names the bad field before the server is asked; mcp({ connect }) relists; status names unknown direct tools", async () => {
    await using project = await everythingProject(
      host,
      { directTools: ["get-sum", "no-such-tool"] },
      [
        { toolCall: { name: "everything_get_sum", arguments: { a: "2", b: 3 } } },
        { toolCall: { name: "mcp", arguments: { connect: "everything" } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Done." },
      ],
      { strictDirectToolArguments: true },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Add.");
    expect(run.code, run.stderr).toBe(0);
    // Pi alone would convert "2" to 2 and call; strict checks what the model sent.
    expect(toolResultTexts(run.requests[1]!)[0]).toBe(
      'Tool everything_get_sum: argument "a" must be number (got string "2")',
    );
    expect(toolResultTexts(run.requests[2]!)[1]).toMatch(/^Connected everything: \d+ tools listed\.$/);
    expect(toolResultTexts(run.requests[3]!)[2]).toContain(
      'warning: direct tools: Server "everything": directTools names "no-such-tool", which it does not offer',
    );
  }, 120_000);

  it("/mcp-adapter reconnect lists a server again and registers what it now offers", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ join }) => ({
        settings: { directTools: true },
        mcpServers: {
          menu: {
            command: process.execPath,
            args: [join("menu.mjs")],
            env: { MENU_FILE: join("menu.json") },
          },
        },
      }),
      steps: [{ text: "Hi." }, { toolCall: { name: "menu_beta", arguments: {} } }, { text: "Served." }],
    });
    await writeFile(project.join("menu.mjs"), MENU_SERVER);
    await writeFile(project.join("menu.json"), JSON.stringify(["alpha"]));
    const notices = await promptInOneSession(project, [
      "Hi.",
      async () => {
        await writeFile(project.join("menu.json"), JSON.stringify(["alpha", "beta"]));
        return "/mcp-adapter reconnect menu";
      },
      "Serve beta.",
    ]);
    expect(notices).toContain("menu: reconnected, 2 tools");
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "menu")).toEqual(["mcp", "menu_alpha"]);
    expect(mcpNames(requests[1], "menu")).toEqual(["mcp", "menu_alpha", "menu_beta"]);
    expect(toolResultTexts(requests[2]!).at(-1)).toBe("beta served");
  }, 150_000);

  // Pi 1.x only: its own `tool_search` (a built-in extension, loaded here next to ours) finds the
  // deferred tools and loads them for the next model call of the same prompt.
  if (host.nativeMcp)
    it('(4, Pi 1.x) directTools "search": Pi\'s tool_search finds and loads them', async () => {
      const toolSearch = toolSearchExtension(host);
      await using project = await everythingProject(host, { directTools: "search" }, [
        { toolCall: { name: "tool_search", arguments: { query: "sum two numbers" } } },
        { toolCall: { name: "everything_get_sum", arguments: { a: 20, b: 22 } } },
        { text: "42." },
      ]);
      await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
      const run = await project.run("Add 20 and 22.", { extraArgs: ["-e", toolSearch] });
      expect(run.code, run.stderr).toBe(0);
      const declared = (request: ChatRequest | undefined) =>
        (request?.tools ?? []).map((t) => t.function.name);
      expect(declared(run.requests[0])).toContain("tool_search");
      expect(mcpNames(run.requests[0], "everything")).toEqual(["mcp"]);
      expect(mcpNames(run.requests[1], "everything")).toContain("everything_get_sum");
      expect(toolResultTexts(run.requests[2]!).at(-1)).toContain("42");
    }, 120_000);
});
