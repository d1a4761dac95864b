/**
 * `describe` shows parameter descriptions as servers write them once their
 * line ends are read: a Windows `\r\n`, a trailing `\r` or a docstring-style
 * multi-line text never reaches the model as a carriage return or as lines
 * that break out of the parameter list.
 */
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { connectInMemory, createFixtureServer, createTempDir } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { AdapterRuntime } from "../../src/index.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";
import { stdioDefinition } from "../definitions.js";

const tools = [
  {
    name: "read_file",
    description: "Read a file.\r\n",
    inputSchema: {
      type: "object" as const,
      properties: {
        path: { type: "string", description: "Path of the file.\r" },
        encoding: { type: "string", description: "\n    Text encoding.\r\n    Defaults to utf-8.\r\n  " },
      },
      required: ["path"],
    },
  },
];

describe("describe's parameters", () => {
  it("carry no carriage return, and a multi-line description stays inside its parameter's entry", async () => {
    await using dir = await createTempDir();
    const runtime = new AdapterRuntime({
      servers: [stdioDefinition("fs")],
      catalog: { cache: new MetadataCache({ file: dir.join("mcp-cache.json") }) },
      connect: async (definition) =>
        connectServer(definition, {
          transport: await connectInMemory(createFixtureServer({ name: definition.name, tools })),
        }),
    });
    try {
      const outcome = await runProxyRequest(runtime, { describe: "fs_read_file" });
      const text = outcome.content.map((c) => ("text" in c ? c.text : "")).join("\n");
      expect(text).not.toContain("\r");
      expect(text).toContain("- path (string, required): Path of the file.\n");
      expect(text).toContain("- encoding (string, optional): Text encoding.\n    Defaults to utf-8.\n");
    } finally {
      await runtime.shutdown();
    }
  });
});
