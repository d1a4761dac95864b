/**
 * Which viewer shows MCP Apps: `MCP_UI_VIEWER=browser|none|glimpse`, or,
 * when unset, the browser where a display exists (macOS, Windows, or an
 * X11 / Wayland session, forwarded over SSH too) and none elsewhere (SSH
 * without a forwarded display, CI, containers).
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
  const fallback: UiViewerMode = browserAvailable(env, platform) ? "browser" : "none";
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

/**
 * Whether a browser can be opened where the user sees it: on macOS and Windows,
 * and in an X11 / Wayland session (`DISPLAY`, `WAYLAND_DISPLAY`); over SSH only
 * with a forwarded display. MCP Apps, login pages and URL elicitation all ask this.
 */
export function browserAvailable(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const forwarded = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  // Over SSH a browser would open on the remote machine's screen, where nobody is looking.
  if (env.SSH_CONNECTION || env.SSH_TTY) return forwarded;
  return platform === "darwin" || platform === "win32" || forwarded;
}
