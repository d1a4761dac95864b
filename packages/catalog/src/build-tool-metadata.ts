import {
  prefixedToolName,
  type RemoteTool,
  type ToolMetadata,
  type ToolPrefixMode,
} from "@pi-mcp-adapter/core";

export interface BuildToolMetadataOptions {
  /** Prefix mode for exposed names; default `server`. */
  toolPrefix?: ToolPrefixMode;
}

/** Turns one server's listed tools into search- and call-ready metadata. */
export function buildToolMetadata(
  server: string,
  tools: RemoteTool[],
  options: BuildToolMetadataOptions = {},
): ToolMetadata[] {
  return tools.map((tool) => ({
    server,
    name: tool.name,
    prefixedName: prefixedToolName(server, tool.name, options.toolPrefix),
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema ?? { type: "object" },
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    kind: "tool" as const,
  }));
}
