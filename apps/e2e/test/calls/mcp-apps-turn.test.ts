/**
 * An MCP App that starts a turn, in real Pi (both lines, `--mode rpc`) with a
 * real headless Chromium (Debian's `chromium`, driven by playwright-core).
 * The model calls the fixture App's UI tool; the viewer "opens the browser"
 * through `xdg-open`, which here is a stand-in script on PATH that writes
 * what it was handed to a file (no desktop to open one on) — a private local
 * page, never a URL with a secret — and the test loads that in Chromium.
 * The user clicks "Add" in the app: its `ui/message` must start a new agent
 * run whose model request carries the message, and its custom `celebrate`
 * action follows as another turn.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  APP_FIXTURE_MESSAGE,
  appFixtureServerPath,
  CHROMIUM_MISSING,
  chromiumForTests,
  skipNotice,
  userMessageTexts,
} from "@pi-mcp-adapter/test-kit";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { type RpcMessage, rpcMessages } from "../../src/rpc-messages.js";

const chromiumBinary = chromiumForTests();
const skipped = skipNotice("MCP Apps turn tests", chromiumBinary ? undefined : CHROMIUM_MISSING);

let browser: Browser | undefined;
beforeAll(async () => {
  if (chromiumBinary) browser = await chromium.launch(chromiumBinary.launch);
});
afterAll(async () => {
  await browser?.close();
});

/** Polls `read` until it gives a value, or throws naming `what` at the deadline. */
async function waitFor<T>(what: string, read: () => Promise<T | undefined> | T | undefined, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const CELEBRATE = 'The board app (show_board) asks for: celebrate {"confetti":true}';

describe.skipIf(skipped !== "").each(piHosts())(`an MCP App starts a turn on $label${skipped}`, (host) => {
  it("the app's ui/message starts an agent run whose request carries it", async () => {
    await using project = await createPiProject({
      host,
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "board_show_board", args: { title: "Groceries" } } } },
        { text: "The board is open." },
        { text: "Apple noted." },
      ],
      adapterConfig: { mcpServers: { board: { command: process.execPath, args: [appFixtureServerPath] } } },
    });
    // The stand-in browser opener: it only records the URL it was given.
    const bin = project.join("bin");
    const urls = project.join("opened-urls.txt");
    await mkdir(bin);
    await writeFile(path.join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${urls}'\n`);
    await chmod(path.join(bin, "xdg-open"), 0o755);

    const child = project.rpc({
      env: {
        PATH: `${bin}:${path.dirname(host.node)}:${process.env.PATH ?? ""}`,
        MCP_UI_VIEWER: "browser",
        MCP_UI_TOOL_CONSENT: "never",
      },
    });
    const seen: RpcMessage[] = [];
    const reading = (async () => {
      for await (const message of rpcMessages(child.stdout)) {
        seen.push(message);
        // No dialog is expected; one would be dismissed rather than hang the run.
        if (
          message.type === "extension_ui_request" &&
          ["select", "input", "confirm", "editor"].includes(message.method ?? "")
        )
          child.stdin.write(
            `${JSON.stringify({ type: "extension_ui_response", id: message.id, cancelled: true })}\n`,
          );
      }
    })();
    const page = await (browser as Browser).newPage();
    try {
      child.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "Show me the board." })}\n`);
      const url = await waitFor(
        "the app window's URL",
        async () => (await readFile(urls, "utf8").catch(() => "")).split("\n")[0] || undefined,
      );
      await waitFor("the first run's end", () => seen.some((m) => m.type === "agent_end") || undefined);
      expect(project.model.requests).toHaveLength(2);

      // The opener's command line (readable by every local user) holds a private local page, not the entry URL.
      expect(url).toMatch(/^file:\/\/\/.+\.html$/);
      await page.goto(url);
      const frame = page.frameLocator("#app");
      await expect
        .poll(() => frame.locator("#status").textContent(), { timeout: 30_000 })
        .toBe("connected to pi-mcp-adapter");
      await frame.locator("#add").click();

      // The message starts a run of its own: the next request ends with it as the user's message.
      const request = await waitFor("the request the app's message started", () =>
        project.model.requests.find((r, i) => i >= 2 && userMessageTexts(r).includes(APP_FIXTURE_MESSAGE)),
      );
      expect(userMessageTexts(request).at(-1)).toBe(APP_FIXTURE_MESSAGE);
      // The app's custom action follows as a turn of its own (queued while the first one ran).
      await waitFor("the intent's turn", () =>
        project.model.requests.find((r) => userMessageTexts(r).at(-1) === CELEBRATE),
      );
      expect(await frame.locator("#call").textContent()).toBe("ok: added apple");
    } finally {
      await page.close();
      child.kill();
      await reading.catch(() => {});
    }
  });
});
