/**
 * Turns what one server lists (tools, resources, prompts) into the metadata
 * search, describe and call work from. Resources become read-only tools named
 * by `resourceNameToToolName` (templates too, their `{variables}` becoming
 * required string arguments); prompts keep their names. Names are prefixed by
 * core's rule for the server's `toolPrefix` mode (names that fold alike kept
 * apart by suffixes), and `includeTools` / `excludeTools` are applied to every kind.
 */
import {
  type RemotePrompt,
  type RemoteResource,
  type RemoteResourceTemplate,
  type RemoteTool,
  type TaskSupport,
  type ToolMetadata,
  type ToolPrefixMode,
  toolUiOf,
  uniqueToolNames,
} from "@pi-mcp-adapter/core";
import type { SkippedList } from "./cache-file-schema.js";
import { readFromSmallText } from "./cache-file-text.js";
import { checkListingLimits } from "./listing-limits.js";
import { resourceNameToToolName } from "./resource-name.js";
import type { RefusedSkillEntry } from "./skills/skill-entry.js";
import type { SkillEntry } from "./skills/skill-entry-check.js";
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
  /** The title and description the server gave of itself in `initialize` (search reads them). */
  serverInfo?: { title?: string; description?: string };
  /** Declared lists that did not come, and why (absent when every declared list came). */
  skipped?: SkippedList[];
  /**
   * The skills (SEP-2640) the server lists, entries checked one by one
   * (`checkSkillListing`). Absent: the server does not offer skills; `[]`: it
   * does and lists none now (it may still serve skills by URI).
   */
  skills?: SkillEntry[];
  /** Entries of the skills listing that failed the extension's checks, with why (shown to the user; absent when none). */
  refusedSkills?: RefusedSkillEntry[];
}

export interface BuildToolMetadataOptions extends ToolFilter {
  /** Prefix mode for exposed names; default `server`. */
  toolPrefix?: ToolPrefixMode;
  /** Every configured server's name: a tool keeps an un-doubled name only where no other server's prefix could claim it (core's `uniqueToolNames`). */
  serverNames?: readonly string[];
  /** Told of entries left out (no name, listed twice), each message naming the server. */
  onWarning?: (message: string) => void;
}

/** Metadata before its exposed name is decided (that needs every entry of the server). */
type Draft = Omit<ToolMetadata, "prefixedName">;

/** Turns one server's listed tools into search- and call-ready metadata. */
export function buildToolMetadata(
  server: string,
  tools: RemoteTool[],
  options: BuildToolMetadataOptions = {},
): ToolMetadata[] {
  return buildServerMetadata(server, { tools }, options);
}

/**
 * Tools, then resources, then prompts of one server, filtered and named.
 * Throws a `CatalogError` (`catalog_too_large`) when the listing is over the
 * catalog's bounds (see `listing-limits.ts`). Every entry stays reachable:
 * names that fold alike get distinct exposed names (core's
 * `uniqueToolNames`); an entry without a name, or listed twice, is left out
 * and reported through `onWarning`.
 */
export function buildServerMetadata(
  server: string,
  listing: ServerListing,
  options: BuildToolMetadataOptions = {},
): ToolMetadata[] {
  // A listing read from a small cache file cannot be over the byte bound: not measured again (~20 µs a tool).
  checkListingLimits(server, listing, undefined, readFromSmallText(listing));
  const warn = options.onWarning ?? (() => {});
  const drafts: Draft[] = [];
  const seen = new Set<string>();
  // What one call sends on the wire: two entries with the same key could never be told apart.
  const add = (draft: Draft, wireKey: string, label: string) => {
    if (seen.has(wireKey)) {
      warn(`MCP server "${server}" listed ${label} twice; only the first is used`);
      return;
    }
    seen.add(wireKey);
    drafts.push(draft);
  };
  const named = (kind: string, name: unknown): name is string => {
    if (typeof name === "string" && name.trim() !== "") return true;
    warn(`MCP server "${server}" listed a ${kind} with an empty name; it was left out`);
    return false;
  };
  for (const tool of listing.tools) {
    if (!named("tool", tool.name)) continue;
    const ui = toolUiOf(tool._meta);
    const taskSupport = taskSupportOf(tool);
    add(
      {
        server,
        name: tool.name,
        description: tool.description ?? tool.title ?? "",
        inputSchema: tool.inputSchema ?? { type: "object" },
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(ui ? { ui } : {}),
        ...(taskSupport ? { taskSupport } : {}),
        kind: "tool",
      },
      `tool\u0000${tool.name}`,
      `tool "${tool.name}"`,
    );
  }
  for (const resource of listing.resources ?? []) {
    const about = resource.description ?? resource.title ?? resource.name;
    add(
      {
        server,
        name: resourceNameToToolName(resource.name ?? ""),
        description: `Read resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}: ${about}`,
        inputSchema: { type: "object", properties: {} },
        annotations: { readOnlyHint: true },
        kind: "resource",
        uri: resource.uri,
      },
      `resource\u0000${resource.uri}`,
      `resource ${resource.uri}`,
    );
  }
  for (const template of listing.resourceTemplates ?? []) {
    const about = template.description ?? template.title ?? template.name;
    const variables = templateVariables(template.uriTemplate);
    const required = templateVariables(template.uriTemplate, true);
    add(
      {
        server,
        name: resourceNameToToolName(template.name ?? ""),
        description: `Read resource template ${template.uriTemplate}${template.mimeType ? ` (${template.mimeType})` : ""}: ${about}`,
        inputSchema: {
          type: "object",
          properties: Object.fromEntries(variables.map((v) => [v, { type: "string" }])),
          required,
        },
        annotations: { readOnlyHint: true },
        kind: "resource",
        uriTemplate: template.uriTemplate,
      },
      `template\u0000${template.uriTemplate}`,
      `resource template ${template.uriTemplate}`,
    );
  }
  for (const prompt of listing.prompts ?? []) {
    if (!named("prompt", prompt.name)) continue;
    const args = prompt.arguments ?? [];
    add(
      {
        server,
        name: prompt.name,
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
      },
      `prompt\u0000${prompt.name}`,
      `prompt "${prompt.name}"`,
    );
  }
  const exposed = uniqueToolNames(
    server,
    drafts.map((d) => d.name),
    options.toolPrefix,
    options.serverNames,
  );
  return drafts
    .map((draft, i): ToolMetadata => ({ ...draft, prefixedName: exposed[i]! }))
    .filter((metadata) => isToolIncluded(metadata, options));
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
  // The values of core's `TaskSupportSchema`, checked by hand: this module is on a host's start path (no zod).
  const value = tool.execution?.taskSupport;
  return value === "forbidden" || value === "optional" || value === "required" ? value : undefined;
}
