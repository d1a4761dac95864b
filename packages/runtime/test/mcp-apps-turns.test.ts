/**
 * What an MCP App says to the model, in a real headless Chromium (Debian's
 * `chromium`, driven by playwright-core) against the test-kit fixture App:
 * its `ui/message` and intents start a turn through the host, its
 * `ui/update-model-context` waits for the next turn (a later update
 * replaces an earlier one), and the permissions its resource asks for are
 * granted (clipboard writes) or refused with a note the user sees.
 */
import { execFileSync } from "node:child_process";
import { APP_FIXTURE_CONTEXT, APP_FIXTURE_MESSAGE, appFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { type Browser, chromium } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AdapterRuntime, runProxyRequest } from "../src/index.js";
import { connectWith, stdioDefinition } from "./definitions.js";
import { uiHost } from "./hosts.js";

const chromiumPath = (() => {
  try {
    return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
})();
if (process.env.CI === "true" && !chromiumPath)
  throw new Error("CI needs Debian's chromium for the MCP Apps browser test (.ci/run installs it)");

let browser: Browser | undefined;
let runtime: AdapterRuntime | undefined;
beforeAll(async () => {
  if (!chromiumPath) return;
  const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await runtime?.shutdown();
  runtime = undefined;
});

describe.skipIf(!chromiumPath)("an MCP App's words for the model, in headless Chromium", () => {
  it("messages start turns, model context waits for the next turn, permissions are mapped or refused", async () => {
    const page = await (browser as Browser).newPage();
    const turns: string[] = [];
    const notices: string[] = [];
    runtime = new AdapterRuntime({
      servers: [stdioDefinition("board", { command: process.execPath, args: [appFixtureServerPath] })],
      connect: connectWith(),
      host: uiHost(async () => undefined, {
        startTurn: (text) => turns.push(text),
        notify: (message) => notices.push(message),
      }),
      ui: { viewer: "browser", consent: "never", open: async (url) => void (await page.goto(url)) },
    });
    await runtime.call("board_show_board", { title: "Groceries" });
    const frame = page.frameLocator("#app");
    await expect
      .poll(() => frame.locator("#result").textContent(), { timeout: 20_000 })
      .toBe('{"title":"Groceries","items":["pear"]}');

    // Clipboard writes are granted on the iframe; the camera is refused, and the user is told on the page and as a notice.
    expect(await page.locator("#app").getAttribute("allow")).toBe("clipboard-write");
    expect(await page.locator("#app").getAttribute("sandbox")).toBe("allow-scripts allow-forms");
    const note =
      "The board app (show_board) asked for camera: not granted (apps here may only write to the clipboard; use the server's own client for device access)";
    expect(await page.locator("#note").textContent()).toBe(note);
    expect(notices).toEqual([note]);

    // The app's message and its custom action start turns; `notify` is for the queue.
    await frame.locator("#add").click();
    await expect.poll(() => turns, { timeout: 20_000 }).toHaveLength(2);
    expect(turns).toEqual([
      APP_FIXTURE_MESSAGE,
      'The board app (show_board) asks for: celebrate {"confetti":true}',
    ]);
    const queued = await runProxyRequest(runtime, { action: "ui-messages" });
    expect(queued.content.map((c) => ("text" in c ? c.text : "")).join("\n")).toMatch(
      /^1 UI message:\n.* notify from board\/show_board .*"apple added"/,
    );

    // Nothing waits for the model until the app shares context; a second update replaces the first.
    expect(runtime.takeTurnNotes()).toEqual([]);
    await frame.locator("#share").click();
    await expect.poll(() => frame.locator("#call").textContent(), { timeout: 20_000 }).toBe("shared 1");
    await frame.locator("#share").click();
    await expect.poll(() => frame.locator("#call").textContent(), { timeout: 20_000 }).toBe("shared 2");
    expect(runtime.takeTurnNotes()).toEqual([
      `Context from the board app (show_board):\n${APP_FIXTURE_CONTEXT} #2: pear`,
    ]);
    expect(runtime.takeTurnNotes()).toEqual([]);
  });
});
