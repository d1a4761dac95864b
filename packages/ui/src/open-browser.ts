/**
 * Opens a URL with the platform's opener (`open`, `start`, `xdg-open`), detached
 * from this process. Whether a browser can be opened at all: `browserAvailable`
 * (viewer-mode.ts).
 */
import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";

/** How the opener is started: `child_process.spawn`, or anything of its shape (tests record the command line). */
export type SpawnOpener = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

/**
 * Opens `url` (an MCP App's launch page is a `file://` URL) with the
 * platform's opener, started by `spawnOpener`; resolves once it started.
 */
export function openInBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
  spawnOpener: SpawnOpener = spawn,
): Promise<void> {
  const [command, args] =
    platform === "darwin"
      ? ["open", [url]]
      : platform === "win32"
        ? ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]]
        : ["xdg-open", [url]];
  return new Promise((resolve, reject) => {
    const child = spawnOpener(command, args, { detached: true, stdio: "ignore", windowsHide: true });
    child.once("error", (error) =>
      reject(new Error(`Could not open the browser with ${command}: ${error.message}`)),
    );
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}
