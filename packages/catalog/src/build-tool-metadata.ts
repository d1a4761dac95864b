/**
 * Turns what one server lists (tools, resources, prompts) into the metadata
 * search, describe and call work from. Resources become read-only tools named
 * by `resourceNameToToolName` (templates too, their `{variables}` becoming
 * required string arguments); prompts keep their names. Names are prefixed by
 * core's rule for the server's `toolPrefix` mode, and `includeTools` /
 * `excludeTools` are applied to every kind.
 */
import {
  prefixedToolName,
  type RemotePrompt,
  type RemoteResource,
  type RemoteResourceTemplate,
  type RemoteTool,
  type TaskSupport,
  TaskSupportSchema,
  type ToolMetadata,
  type ToolPrefixMode,
  toolUiOf,
} from "@pi-mcp-adapter/core";
import { resourceNameToToolName } from "./resource-name.js";
import { isToolIncluded, type ToolFilter } from "./tool-filter.js";

/** A resource as `resources/list` gives it (core's wire shape). */
export type ResourceListing = RemoteResource;

/** A resource template as `resources/templates/list` gives it (core's wire shape). */
export type ResourceTemplateListing = RemoteResourceTemplate;

/** A prompt as `prompts/list` gives it (core's wire shape). */
export type PromptListing = RemotePrompt;

/** Everything listed by one server at connect time; this is what the disk cache stores. */
export interface ServerListing {
  tools: RemoteTool[];
  resources?: ResourceListing[];
  resourceTemplates?: ResourceTemplateListing[];
  prompts?: PromptListing[];
  /** The server's `instructions` from `initialize`. */
  instructions?: string;
}

export interface BuildToolMetadataOptions extends ToolFilter {
  /** Prefix mode for exposed names; default `server`. */
  toolPrefix?: ToolPrefixMode;
}

/** Turns one server's listed tools into search- and call-ready metadata. */
export function buildToolMetadata(
  server: string,
  tools: RemoteTool[],
  options: BuildToolMetadataOptions = {},
): ToolMetadata[] {
  return buildServerMetadata(server, { tools }, options);
}

/** Tools, then resources, then prompts of one server, filtered and named. */
export function buildServerMetadata(
  server: string,
  listing: ServerListing,
  options: BuildToolMetadataOptions = {},
): ToolMetadata[] {
  const name = (tool: string) => prefixedToolName(server, tool, options.toolPrefix);
  const out: ToolMetadata[] = [];
  const taken = new Set<string>();
  const push = (metadata: ToolMetadata) => {
    if (taken.has(metadata.prefixedName) || !isToolIncluded(metadata, options)) return;
    taken.add(metadata.prefixedName);
    out.push(metadata);
  };
  for (const tool of listing.tools) {
    const ui = toolUiOf(tool._meta);
    const taskSupport = taskSupportOf(tool);
    push({
      server,
      name: tool.name,
      prefixedName: name(tool.name),
      description: tool.description ?? tool.title ?? "",
      inputSchema: tool.inputSchema ?? { type: "object" },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(ui ? { ui } : {}),
      ...(taskSupport ? { taskSupport } : {}),
      kind: "tool",
    });
  }
  for (const resource of listing.resources ?? []) {
    const toolName = resourceNameToToolName(resource.name);
    const about = resource.description ?? resource.title ?? resource.name;
    push({
      server,
      name: toolName,
      prefixedName: name(toolName),
      description: `Read resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}: ${about}`,
      inputSchema: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
      kind: "resource",
      uri: resource.uri,
    });
  }
  for (const template of listing.resourceTemplates ?? []) {
    const toolName = resourceNameToToolName(template.name);
    const about = template.description ?? template.title ?? template.name;
    const variables = templateVariables(template.uriTemplate);
    const required = templateVariables(template.uriTemplate, true);
    push({
      server,
      name: toolName,
      prefixedName: name(toolName),
      description: `Read resource template ${template.uriTemplate}${template.mimeType ? ` (${template.mimeType})` : ""}: ${about}`,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(variables.map((v) => [v, { type: "string" }])),
        required,
      },
      annotations: { readOnlyHint: true },
      kind: "resource",
      uriTemplate: template.uriTemplate,
    });
  }
  for (const prompt of listing.prompts ?? []) {
    const args = prompt.arguments ?? [];
    push({
      server,
      name: prompt.name,
      prefixedName: name(prompt.name),
      description: `Prompt template: ${prompt.description ?? prompt.title ?? prompt.name}`,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(
          args.map((a) => [
            a.name,
            { type: "string", ...(a.description ? { description: a.description } : {}) },
          ]),
        ),
        required: args.filter((a) => a.required).map((a) => a.name),
      },
      kind: "prompt",
    });
  }
  return out;
}

/**
 * The `{var}` names of a URI template, each once (operators such as `+` or
 * `?` stripped). `simpleOnly`: just those of plain `{var}` expressions, the
 * ones a read cannot leave out (query-style `{?var}` parts are optional).
 */
function templateVariables(uriTemplate: string, simpleOnly = false): string[] {
  const names = [...uriTemplate.matchAll(/\{([^}]*)\}/g)]
    .filter((m) => !simpleOnly || !/^[+#./;?&]/.test(m[1] ?? ""))
    .flatMap((m) => (m[1] ?? "").replace(/^[+#./;?&]/, "").split(","));
  return [...new Set(names.map((n) => n.replace(/[:*].*$/, "")).filter(Boolean))];
}

/** The tool's `execution.taskSupport` (MCP Tasks), when it declared a known value. */
function taskSupportOf(tool: RemoteTool): TaskSupport | undefined {
  const parsed = TaskSupportSchema.safeParse(tool.execution?.taskSupport);
  return parsed.success ? parsed.data : undefined;
}
