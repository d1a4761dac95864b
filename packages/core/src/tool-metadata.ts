import { z } from "zod";
import { ToolUiSchema } from "./tool-ui-schema.js";

/** What the model can reach through the proxy: a tool, a resource read, or a prompt. */
export const ToolKindSchema = z.enum(["tool", "resource", "prompt"]);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/** MCP tool annotations (hints a server gives about a tool's behaviour). */
export const ToolAnnotationsSchema = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .loose();
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A JSON Schema object as the server sent it. */
export const JsonSchemaObjectSchema = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObjectSchema>;

/**
 * A tool's `execution.taskSupport` (MCP Tasks): `"required"` tools run only as
 * tasks, `"optional"` ones either way, `"forbidden"` (or none) never as tasks.
 */
export const TaskSupportSchema = z.enum(["forbidden", "optional", "required"]);
export type TaskSupport = z.infer<typeof TaskSupportSchema>;

/** Everything search, describe and call need to know about one tool, without a connection. */
export const ToolMetadataSchema = z.object({
  server: z.string(),
  name: z.string(),
  prefixedName: z.string(),
  description: z.string(),
  inputSchema: JsonSchemaObjectSchema,
  outputSchema: JsonSchemaObjectSchema.optional(),
  annotations: ToolAnnotationsSchema.optional(),
  kind: ToolKindSchema,
  uri: z.string().optional(),
  /** A resource template's RFC 6570 `uriTemplate` (kind `resource`); its variables are the arguments. */
  uriTemplate: z.string().optional(),
  /** MCP Apps metadata (`_meta.ui`): the tool's `ui://` resource and who may call it. */
  ui: ToolUiSchema.optional(),
  /** The tool's `execution.taskSupport`, when it declared one (kind `tool` only). */
  taskSupport: TaskSupportSchema.optional(),
});
export type ToolMetadata = z.infer<typeof ToolMetadataSchema>;
