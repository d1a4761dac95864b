import type { RemoteTool } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { buildToolMetadata } from "../src/build-tool-metadata.js";
import { buildServerMetadata, resourceNameToToolName } from "../src/index.js";

const tools: RemoteTool[] = [
  { name: "take_screenshot", description: "Take a screenshot", inputSchema: { type: "object" } },
  {
    name: "navigate-page",
    title: "Navigate",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: false },
  },
  { name: "delete_file", description: "Delete", inputSchema: { type: "object" } },
];

const names = (server: string, mode?: "server" | "short" | "none" | "mcp") =>
  buildToolMetadata(server, tools, { toolPrefix: mode }).map((t) => t.prefixedName);

describe("buildToolMetadata naming", () => {
  it("prefixes with the server by default, folding characters a provider rejects", () => {
    expect(names("chrome-devtools-mcp")).toEqual([
      "chrome_devtools_mcp_take_screenshot",
      "chrome_devtools_mcp_navigate_page",
      "chrome_devtools_mcp_delete_file",
    ]);
  });

  it("short strips a -mcp suffix, none uses the tool's name, mcp uses mcp__server__tool", () => {
    expect(names("chrome-devtools-mcp", "short")[0]).toBe("chrome_devtools_take_screenshot");
    expect(names("chrome-devtools-mcp", "none")).toEqual(["take_screenshot", "navigate_page", "delete_file"]);
    expect(names("chrome-devtools-mcp", "mcp")[0]).toBe("mcp__chrome_devtools_mcp__take_screenshot");
  });

  it("keeps the original name, falls back from description to title, and carries annotations", () => {
    const [, navigate] = buildToolMetadata("web", tools);
    expect(navigate).toMatchObject({
      server: "web",
      name: "navigate-page",
      description: "Navigate",
      kind: "tool",
      annotations: { readOnlyHint: false },
    });
  });
});

describe("includeTools / excludeTools", () => {
  it("keeps only included tools, matched by original or prefixed name, with globs", () => {
    const kept = buildToolMetadata("fs", tools, { includeTools: ["take_*", "fs_navigate?page"] });
    expect(kept.map((t) => t.name)).toEqual(["take_screenshot", "navigate-page"]);
  });

  it("drops excluded tools, and exclude wins over include", () => {
    expect(buildToolMetadata("fs", tools, { excludeTools: ["delete_*"] }).map((t) => t.name)).toEqual([
      "take_screenshot",
      "navigate-page",
    ]);
    expect(
      buildToolMetadata("fs", tools, { includeTools: ["*"], excludeTools: ["fs_take_screenshot"] }),
    ).toHaveLength(2);
  });
});

describe("resources and prompts", () => {
  it("names resources as identifiers with a resource_ prefix when needed", () => {
    expect(resourceNameToToolName("Project README.md")).toBe("resource_project_readme_md");
    expect(resourceNameToToolName("resource--logs//today")).toBe("resource_logs_today");
    expect(resourceNameToToolName("2024 report")).toBe("resource_2024_report");
    expect(resourceNameToToolName("***")).toBe("resource");
  });

  it("lists tools, then resources as read-only tools with their URI, then prompts with string arguments", () => {
    const metadata = buildServerMetadata("docs", {
      tools: [tools[0]!],
      resources: [
        { uri: "file:///readme.md", name: "README.md", mimeType: "text/markdown", description: "Readme" },
      ],
      prompts: [
        {
          name: "summarize",
          description: "Summarize a text",
          arguments: [
            { name: "text", required: true },
            { name: "style", description: "tone" },
          ],
        },
      ],
    });
    expect(metadata.map((t) => [t.kind, t.prefixedName])).toEqual([
      ["tool", "docs_take_screenshot"],
      ["resource", "docs_resource_readme_md"],
      ["prompt", "docs_summarize"],
    ]);
    expect(metadata[1]).toMatchObject({ uri: "file:///readme.md", annotations: { readOnlyHint: true } });
    expect(metadata[1]!.description).toContain("file:///readme.md (text/markdown): Readme");
    expect(metadata[2]!.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string" }, style: { type: "string", description: "tone" } },
      required: ["text"],
    });
  });

  it("applies filters to resources and prompts too, and a tool keeps its name in a clash with a prompt", () => {
    const metadata = buildServerMetadata(
      "docs",
      {
        tools: [{ name: "summarize", inputSchema: { type: "object" } }],
        resources: [{ uri: "mem://a", name: "a" }],
        prompts: [{ name: "summarize" }, { name: "other" }],
      },
      { excludeTools: ["resource_*"] },
    );
    expect(metadata.map((t) => `${t.kind}:${t.name}:${t.prefixedName}`)).toEqual([
      "tool:summarize:docs_summarize",
      "prompt:summarize:docs_summarize_2",
      "prompt:other:docs_other",
    ]);
  });

  it("lists resource templates as resources whose template variables are the arguments", () => {
    const [template] = buildServerMetadata("everything", {
      tools: [],
      resourceTemplates: [
        {
          uriTemplate: "demo://resource/dynamic/text/{resourceId}{?lang,fmt}",
          name: "Dynamic Text Resource",
          mimeType: "text/plain",
          description: "Text made from the id",
        },
      ],
    });
    expect(template).toMatchObject({
      name: "resource_dynamic_text_resource",
      prefixedName: "everything_resource_dynamic_text_resource",
      kind: "resource",
      uriTemplate: "demo://resource/dynamic/text/{resourceId}{?lang,fmt}",
      description:
        "Read resource template demo://resource/dynamic/text/{resourceId}{?lang,fmt} (text/plain): Text made from the id",
      inputSchema: {
        type: "object",
        properties: { resourceId: { type: "string" }, lang: { type: "string" }, fmt: { type: "string" } },
        required: ["resourceId"],
      },
    });
    expect(template?.uri).toBeUndefined();
  });
});

describe("buildToolMetadata MCP Apps metadata", () => {
  it("reads _meta.ui (and the legacy ui/resourceUri key) into ui", () => {
    const built = buildToolMetadata("apps", [
      {
        name: "show",
        inputSchema: { type: "object" },
        _meta: { ui: { resourceUri: "ui://apps/show.html", visibility: ["model", "app"] } },
      },
      { name: "old", inputSchema: { type: "object" }, _meta: { "ui/resourceUri": "ui://apps/old.html" } },
      { name: "refresh", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["app"] } } },
      { name: "plain", inputSchema: { type: "object" } },
    ]);
    expect(built.map((t) => t.ui)).toEqual([
      { resourceUri: "ui://apps/show.html", visibility: ["model", "app"] },
      { resourceUri: "ui://apps/old.html" },
      { visibility: ["app"] },
      undefined,
    ]);
  });
});

describe("buildToolMetadata MCP Tasks metadata", () => {
  it("reads execution.taskSupport into taskSupport, ignoring values it does not know", () => {
    const built = buildToolMetadata("slow", [
      { name: "research", inputSchema: { type: "object" }, execution: { taskSupport: "required" } },
      { name: "maybe", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } },
      { name: "odd", inputSchema: { type: "object" }, execution: { taskSupport: "sometimes" as never } },
      { name: "plain", inputSchema: { type: "object" } },
    ]);
    expect(built.map((t) => t.taskSupport)).toEqual(["required", "optional", undefined, undefined]);
  });
});
