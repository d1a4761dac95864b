/**
 * Resources, resource templates, prompts, completions, resource updates and
 * roots through the runtime, against server-everything over stdio (and an
 * in-process SDK server where server-everything cannot show a case).
 */
import { readFile, stat } from "node:fs/promises";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { connectInMemory, createTempDir, serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { afterEach, describe, expect, it } from "vitest";
import { clientHandlersFor } from "../../src/client-features/client-handlers.js";
import { SessionRoots } from "../../src/client-features/session-roots.js";
import { AdapterRuntime, headlessHost, runProxyRequest } from "../../src/index.js";
import { statusSnapshot } from "../../src/startup.js";
import { connectWith, stdioDefinition } from "../definitions.js";

const ARCHITECTURE = "demo://resource/static/document/architecture.md";

const def = (name: string, extra: Partial<ServerDefinition> = {}): ServerDefinition =>
  stdioDefinition(name, { command: process.execPath, args: [serverEverythingPath], ...extra });

let open: AdapterRuntime | undefined;
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
});

function everything(roots?: SessionRoots) {
  open = new AdapterRuntime({
    servers: [def("everything")],
    host: headlessHost(),
    roots,
    connect: connectWith({ handlers: clientHandlersFor(headlessHost(), { roots }) }),
  });
  return open;
}

const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? "").join("\n");

describe("resources and prompts in the catalog", () => {
  it("search finds the static architecture.md resource, marked, and the proxy reads it by that name", async () => {
    const r = everything();
    const search = await runProxyRequest(r, { search: "architecture" });
    expect(textOf(search)).toContain("- everything_resource_architecture_md [resource]: Read resource");
    const read = await runProxyRequest(r, { tool: "everything_resource_architecture_md" });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain(`[resource ${ARCHITECTURE} (text/markdown)]\n# Everything Server`);
    expect(read.details).toMatchObject({ kind: "resource", name: ARCHITECTURE });
  });

  it("reads a template by its name with the variables as args; a blob lands in a private file", async () => {
    const r = everything();
    const text = await runProxyRequest(r, {
      tool: "everything_resource_dynamic_text_resource",
      args: { resourceId: "12" },
    });
    expect(textOf(text)).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/12 \(text\/plain\)\]\nResource 12: /,
    );
    const blob = await runProxyRequest(r, {
      tool: "everything_resource_dynamic_blob_resource",
      args: { resourceId: 3 },
    });
    const file = /(\/[^\s\]]+)/.exec(textOf(blob).split("saved to ")[1] ?? "")?.[1];
    expect(file, textOf(blob)).toBeDefined();
    expect(await readFile(file!, "utf8")).toMatch(/^Resource 3: This is a base64 blob created at /);
    expect((await stat(file!)).mode & 0o777).toBe(0o600);
  });

  it("mcp({server}) and the status snapshot count resources; tools stay tools", async () => {
    const r = everything();
    const details = textOf(await runProxyRequest(r, { server: "everything" }));
    const [, tools, resources, prompts] = /(\d+) tools, (\d+) resources, (\d+) prompts/.exec(details) ?? [];
    expect(Number(resources)).toBeGreaterThan(2);
    expect(Number(prompts)).toBeGreaterThanOrEqual(4);
    const snapshot = statusSnapshot(r.listings.summaries());
    const entry = snapshot.servers[0]!;
    expect(entry.toolCount).toBe(Number(tools));
    expect(entry.resourceCount).toBe(Number(resources));
    expect(snapshot.totalResources).toBe(Number(resources));
    expect(snapshot.totalTools).toBe(Number(tools));
  });

  it("lists prompts with their command names, and completes their arguments", async () => {
    const r = everything();
    const listed: string[] = [];
    r.listings.onChange((server) => listed.push(server));
    const { prompts } = await r.catalog.prompts();
    expect(listed).toEqual(["everything"]);
    const args = prompts.find((p) => p.prompt.name === "args-prompt");
    expect(args?.command).toBe("mcp__everything__args-prompt");
    expect(args?.prompt.arguments?.map((a) => [a.name, a.required])).toEqual([
      ["city", true],
      ["state", false],
    ]);
    expect(r.catalog.knownPrompts("everything").length).toBe(prompts.length);
    const names = await r.catalog.complete("everything", {
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { department: "Sales" },
    });
    expect(names.values).toEqual(["David", "Eve", "Frank"]);
  });

  it("a resource the server reports updated after a read says so on the next read", async () => {
    const r = everything();
    await r.call("everything_resource_architecture_md", {});
    const first = await r.call("everything_resource_architecture_md", {});
    expect(textOf(first)).not.toContain("changed since");
    // server-everything sends resources/updated for subscribed URIs every 5 s once this is on.
    await r.call("everything_toggle-subscriber-updates", {});
    // Read until the first read after an update: that one carries the note (no fixed wait).
    await expect
      .poll(async () => textOf(await r.call("everything_resource_architecture_md", {})), {
        timeout: 25_000,
        interval: 250,
      })
      .toMatch(
        /^Note: the server reported demo:\/\/resource\/static\/document\/architecture\.md changed since it was last read in this session/,
      );
  }, 40_000);

  it("offers the working directory (and trusted ancestors) as roots; get-roots-list sees them", async () => {
    const temp = await createTempDir();
    try {
      const project = temp.join("work", "project");
      const roots = new SessionRoots(project, [temp.join("work"), "/elsewhere"]);
      const r = everything(roots);
      const result = textOf(await r.call("everything_get-roots-list", {}));
      expect(result).toContain(`URI: file://${project}`);
      expect(result).toContain(`URI: file://${temp.join("work")}`);
      expect(result).not.toContain("elsewhere");
      expect(roots.list()[0]).toEqual({ uri: `file://${project}`, name: "project" });
      // A new working directory reaches the connected server through roots/list_changed.
      roots.setWorkingDirectory(temp.join("other"));
      await expect
        .poll(async () => textOf(await r.call("everything_get-roots-list", {})), { timeout: 5000 })
        .toContain(`URI: file://${temp.join("other")}\n`);
    } finally {
      await temp.remove();
    }
  });
});

describe("a template read with a bad value", () => {
  it("adds the server's completions for the variable to the error", async () => {
    const server = new McpServer({ name: "colors", version: "1.0.0" });
    const known = ["red", "green", "blue"];
    server.registerResource(
      "Color",
      new ResourceTemplate("color://{name}", {
        list: undefined,
        complete: { name: (value) => known.filter((c) => c.startsWith(value)) },
      }),
      { mimeType: "text/plain" },
      async (uri, { name }) => {
        if (!known.includes(String(name))) throw new Error(`Unknown color ${String(name)}`);
        return { contents: [{ uri: uri.href, text: `The color ${String(name)}` }] };
      },
    );
    open = new AdapterRuntime({
      servers: [def("colors", { command: "unused", args: [] })],
      connect: async (definition) =>
        connectServer(definition, { transport: await connectInMemory(server.server) }),
    });
    expect(textOf(await open.call("colors_resource_color", { name: "green" }))).toContain("The color green");
    await expect(open.call("colors_resource_color", { name: "gr" })).rejects.toThrow(
      /Unknown color gr\nValues the server suggests — name: green/,
    );
    await expect(open.call("colors_resource_color", { name: "purple" })).rejects.toThrow(
      /Values the server suggests — name: red, green, blue/,
    );
  });
});

describe("list changes", () => {
  it("prompts/list_changed and resources/list_changed list the server again and tell listeners", async () => {
    const server = new McpServer({ name: "live", version: "1.0.0" });
    server.registerPrompt("first", { description: "The first" }, () => ({
      messages: [{ role: "user", content: { type: "text", text: "one" } }],
    }));
    server.registerResource("notes", "mem://notes", {}, async (uri) => ({
      contents: [{ uri: uri.href, text: "n" }],
    }));
    open = new AdapterRuntime({
      servers: [def("live", { command: "unused", args: [] })],
      connect: async (definition) =>
        connectServer(definition, { transport: await connectInMemory(server.server) }),
    });
    const r = open;
    expect((await r.catalog.prompts()).prompts.map((p) => p.command)).toEqual(["mcp__live__first"]);
    const changes: string[] = [];
    r.listings.onChange((name) => changes.push(name));
    server.registerPrompt("second", {}, () => ({
      messages: [{ role: "user", content: { type: "text", text: "two" } }],
    }));
    await expect
      .poll(() => r.catalog.knownPrompts("live").map((p) => p.prompt.name))
      .toEqual(["first", "second"]);
    expect(changes).toContain("live");
    server.registerResource("todo", "mem://todo", {}, async (uri) => ({
      contents: [{ uri: uri.href, text: "t" }],
    }));
    await expect.poll(() => r.listings.summaries()[0]?.resourceCount).toBe(2);
  });
});
