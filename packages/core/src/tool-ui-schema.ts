/**
 * The schema of a tool's MCP Apps metadata (`_meta.ui`), paired with its
 * type; reading it from a listed tool's `_meta` is `tool-ui.ts` (no zod).
 */
import { z } from "zod";

export const ToolVisibilitySchema = z.enum(["model", "app"]);
export type ToolVisibility = z.infer<typeof ToolVisibilitySchema>;

export const ToolUiSchema = z.object({
  /** The `ui://` resource holding the app's HTML. */
  resourceUri: z.string().optional(),
  /** Who may call the tool; left out, both. */
  visibility: z.array(ToolVisibilitySchema).optional(),
});
export type ToolUi = z.infer<typeof ToolUiSchema>;
