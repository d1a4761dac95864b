/**
 * The browser opener of a Pi session: login pages (`/mcp-auth`) and URL
 * elicitation open the user's browser where one can be seen (the same
 * `browserAvailable` answer MCP Apps follow: macOS, Windows, an X11 / Wayland
 * session, over SSH only a forwarded display). Elsewhere there is no opener,
 * and the user is shown the URL to open themselves.
 */
import { browserAvailable } from "@pi-mcp-adapter/ui/viewer-mode";

/** Opens a URL in the user's browser; rejects when the platform's opener cannot start. */
export type OpenUrl = (url: string) => Promise<void>;

/** The opener, or `undefined` where no browser can be seen (`env`, `platform`: default this process's). */
export function browserOpener(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): OpenUrl | undefined {
  if (!browserAvailable(env, platform)) return undefined;
  // The ui package's opener loads with the first page opened, not at session start.
  return async (url) => (await import("@pi-mcp-adapter/ui")).openInBrowser(url, platform);
}
