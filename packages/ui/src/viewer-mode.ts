/**
 * Which viewer shows MCP Apps: `MCP_UI_VIEWER=browser|none|glimpse`, or,
 * when unset, the browser where a display exists (macOS, Windows, or an
 * X11 / Wayland session) and none elsewhere (SSH, CI, containers).
 */

/** `browser` opens the app in the user's browser; `none` only returns the tool's inline result. */
export type UiViewerMode = "browser" | "none";

export const UI_VIEWER_ENV = "MCP_UI_VIEWER";

export interface UiViewerChoice {
  mode: UiViewerMode;
  /** Why the choice differs from what `MCP_UI_VIEWER` asked for, for a notice. */
  note?: string;
}

export function uiViewerMode(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): UiViewerChoice {
  const asked = env[UI_VIEWER_ENV]?.trim().toLowerCase();
  if (asked === "browser" || asked === "none") return { mode: asked };
  const fallback: UiViewerMode = hasDisplay(env, platform) ? "browser" : "none";
  if (asked === undefined || asked === "") return { mode: fallback };
  if (asked === "glimpse") {
    return {
      mode: "browser",
      note: `${UI_VIEWER_ENV}=glimpse: Glimpse windows are not supported in this version; MCP Apps open in the browser`,
    };
  }
  return {
    mode: fallback,
    note: `${UI_VIEWER_ENV}="${asked.slice(0, 20)}" is not browser, glimpse or none; using ${fallback}`,
  };
}

function hasDisplay(env: Record<string, string | undefined>, platform: NodeJS.Platform): boolean {
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
