/**
 * MCP Apps metadata of a tool (`_meta.ui`): the `ui://` resource that shows
 * its result, and who may call it (`visibility`: the model, the app, or
 * both — both when left out).
 */
import type { ToolUi, ToolVisibility } from "./tool-ui-schema.js";

/** The flat key older MCP Apps servers set instead of `_meta.ui.resourceUri`. */
export const LEGACY_UI_RESOURCE_URI_KEY = "ui/resourceUri";

/** A tool's MCP Apps metadata from its `_meta`; undefined when it has none. */
export function toolUiOf(meta: unknown): ToolUi | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const record = meta as Record<string, unknown>;
  const ui = (typeof record.ui === "object" && record.ui !== null ? record.ui : {}) as Record<
    string,
    unknown
  >;
  const legacy = record[LEGACY_UI_RESOURCE_URI_KEY];
  const resourceUri =
    typeof ui.resourceUri === "string" ? ui.resourceUri : typeof legacy === "string" ? legacy : undefined;
  const visibility = Array.isArray(ui.visibility)
    ? ui.visibility.filter((v): v is ToolVisibility => v === "model" || v === "app")
    : undefined;
  if (resourceUri === undefined && visibility === undefined) return undefined;
  return {
    ...(resourceUri !== undefined ? { resourceUri } : {}),
    ...(visibility !== undefined ? { visibility } : {}),
  };
}

/** Only the app may call it: it stays out of the model's tool list and search. */
export function isAppOnly(ui: ToolUi | undefined): boolean {
  return ui?.visibility !== undefined && !ui.visibility.includes("model");
}

/** The app may not call it. */
export function isHiddenFromApp(ui: ToolUi | undefined): boolean {
  return ui?.visibility !== undefined && !ui.visibility.includes("app");
}
