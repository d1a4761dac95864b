/**
 * The browser opener is handed a private local page, never a URL with a
 * secret: every local user can read an opener's command line
 * (`/proc/<pid>/cmdline`), and the first to load a one-time entry URL would
 * win the window. The real opener runs with a recording spawn (which starts
 * a real, harmless process in the opener's place); the page it was handed
 * is a file of mode 0600 in a directory of mode 0700, leads to the entry
 * URL, and goes away once the browser came in. The real-Chromium run is in
 * the runtime's mcp-apps-browser test.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openInBrowser, type SpawnOpener } from "../src/index.js";
import { enter, entryOf, startBoardViewer } from "./board-viewer.js";

let temp: TempDir;
let open: { close(): Promise<void> } | undefined;
beforeEach(async () => {
  temp = await createTempDir();
});
afterEach(async () => {
  await open?.close();
  open = undefined;
  await temp.remove();
});

/** A spawn that records the opener's command line and starts a process that does nothing instead. */
function recordingSpawn(commandLines: string[][]): SpawnOpener {
  return (command, args, options) => {
    commandLines.push([command, ...args]);
    return spawn(process.execPath, ["-e", ""], options);
  };
}

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe("the MCP Apps browser opener", () => {
  it("is handed a private page, not the entry URL; the page leads in once and is removed", async () => {
    const commandLines: string[][] = [];
    const started = await startBoardViewer([], {
      launchDir: temp.path,
      open: (url) => openInBrowser(url, "linux", recordingSpawn(commandLines)),
    });
    open = started;
    const { shown, viewer } = started;

    expect(commandLines).toEqual([["xdg-open", shown.url]]);
    const file = fileURLToPath(shown.url);
    expect(path.dirname(path.dirname(file))).toBe(temp.path);
    expect(await mode(file)).toBe(0o600);
    expect(await mode(path.dirname(file))).toBe(0o700);
    const entry = await entryOf(shown.url);
    expect(entry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/enter\/[\w-]{32}$/);
    const code = entry.split("/").at(-1) as string;
    for (const word of commandLines.flat()) {
      expect(word).not.toContain(code);
      expect(word).not.toContain("127.0.0.1");
    }
    // So on the other platforms' openers.
    for (const platform of ["darwin", "win32"] as const) {
      const lines: string[][] = [];
      await openInBrowser(shown.url, platform, recordingSpawn(lines));
      expect(lines[0]?.at(-1)).toBe(shown.url);
    }

    // The browser follows the page: the entry URL sets the cookie, the host page loads, the launch page is gone.
    const browser = await enter(entry);
    expect((await browser.get(browser.url)).status).toBe(200);
    await expect.poll(() => existsSync(file)).toBe(false);

    await viewer.close();
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it("an opener that fails leaves no page behind", async () => {
    const failing: SpawnOpener = () => spawn("/nonexistent/xdg-open");
    const started = startBoardViewer([], {
      launchDir: temp.path,
      open: (url) => openInBrowser(url, "linux", failing),
    });
    await expect(started).rejects.toThrow("Could not open the browser with xdg-open");
    await expect.poll(() => readdirSync(temp.path, { recursive: true })).toEqual([]);
  });
});
