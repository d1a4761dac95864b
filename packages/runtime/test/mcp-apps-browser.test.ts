/**
 * MCP Apps end to end in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): a UI tool's call opens its app through the
 * loopback server, the app gets the tool result, its tool calls need the
 * user's consent and pass the call pipeline (approval, origin `ui`), and
 * its messages come back through `mcp({ action: "ui-messages" })` — or,
 * where the host can start turns, its `ui/message` and intents start one;
 * its `ui/update-model-context` waits for the next turn (a later update
 * replacing an earlier one), and the permissions its resource asks for are
 * granted (clipboard writes) or refused with a note the user sees. Against
 * the published example App server and the test-kit fixture App.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  APP_FIXTURE_CONTEXT,
  APP_FIXTURE_MESSAGE,
  appFixtureServerPath,
  CHROMIUM_MISSING,
  chromiumForTests,
  skipNotice,
} from "@pi-mcp-adapter/test-kit";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UI_CONSENT_ALLOW, UI_CONSENT_DENY } from "../src/calls/ui-apps.js";
import { AdapterRuntime, type CallResult, runProxyRequest } from "../src/index.js";
import { internalsOf } from "../src/runtime-internals.js";
import { connectWith, stdioDefinition } from "./definitions.js";
import { uiHost } from "./hosts.js";

const chromiumBinary = chromiumForTests();

// The package exports only its server module; its stdio bin (dist/index.js) sits next to it.
const basicServerPath = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/server-basic-vanillajs")),
  "index.js",
);

let browser: Browser | undefined;
let runtime: AdapterRuntime | undefined;

beforeAll(async () => {
  if (chromiumBinary) browser = await chromium.launch(chromiumBinary.launch);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await runtime?.shutdown();
  runtime = undefined;
});

/** A session whose consent and approval dialogs answer from queues, and whose windows open in `page`. */
async function session(servers: ServerDefinition[], consent: string[], approveTools?: string[]) {
  const page = await (browser as Browser).newPage();
  const opened: string[] = [];
  /** The entry URL each launch page the browser was handed leads to. */
  const entries: string[] = [];
  const asked: string[] = [];
  const host = uiHost(async (title) => {
    asked.push(title);
    return title.includes("wants to call") ? consent.shift() : "Allow once";
  });
  runtime = new AdapterRuntime({
    servers,
    connect: connectWith(),
    host,
    calls: approveTools ? { approveTools } : {},
    ui: {
      viewer: "browser",
      consent: "once-per-server",
      open: async (url) => {
        opened.push(url);
        const launchPage = await readFile(fileURLToPath(url), "utf8");
        entries.push(/http-equiv="refresh" content="0;url=([^"]+)"/.exec(launchPage)?.[1] as string);
        await page.goto(url);
      },
    },
  });
  return { runtime, page, opened, entries, asked };
}

const appFrame = (page: Page) => page.frameLocator("#app");
const textOf = (result: Pick<CallResult, "content">) =>
  result.content.map((c) => ("text" in c ? c.text : "")).join("\n");

const skipped = skipNotice("MCP Apps browser tests", chromiumBinary ? undefined : CHROMIUM_MISSING);
describe.skipIf(skipped !== "")(`MCP Apps in headless Chromium${skipped}`, () => {
  it("the published basic-vanillajs app: result shown, tool call after consent, message queued, token enforced", async () => {
    const { runtime, page, opened, entries, asked } = await session(
      [stdioDefinition("basic", { command: process.execPath, args: [basicServerPath, "--stdio"] })],
      [UI_CONSENT_DENY, UI_CONSENT_ALLOW],
      ["get-time"],
    );
    const first = await runtime.call("basic_get_time", {});
    // The model's inline result is returned as ever.
    const time = (first.structuredContent as { time: string }).time;
    expect(first.isError).toBe(false);
    expect(textOf(first)).toContain(time);

    await expect.poll(() => opened.length, { timeout: 20_000 }).toBe(1);
    const serverTime = appFrame(page).locator("#server-time");
    await expect.poll(() => serverTime.textContent(), { timeout: 20_000 }).toBe(time);

    // The app's own call: denied first (the app shows its error), then allowed for the server.
    const approvalsBefore = asked.filter((t) => !t.includes("wants to call")).length;
    await appFrame(page).locator("#get-time-btn").click();
    await expect.poll(() => serverTime.textContent(), { timeout: 20_000 }).toBe("[ERROR]");
    expect(asked.filter((t) => t.includes("wants to call"))).toEqual([
      "The basic app (get-time) wants to call the MCP tool get-time",
    ]);
    await appFrame(page).locator("#get-time-btn").click();
    await expect.poll(() => serverTime.textContent(), { timeout: 20_000 }).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Consent given, the call still passed approval (approveTools matches it).
    expect(asked.filter((t) => !t.includes("wants to call")).length).toBe(approvalsBefore + 1);

    await appFrame(page).locator("#message-text").fill("Hello from the app window");
    await appFrame(page).locator("#send-message-btn").click();
    await expect
      .poll(async () => textOf(await runProxyRequest(runtime, { action: "ui-messages" })), {
        timeout: 20_000,
      })
      .toMatch(/message from basic\/get-time \(session \w+\): .*Hello from the app window/);
    expect(textOf(await runProxyRequest(runtime, { action: "ui-messages" }))).toBe("No UI messages.");

    // Calling the tool again pushes the new result into the same window.
    const again = await runtime.call("basic_get_time", {});
    const next = (again.structuredContent as { time: string }).time;
    await expect.poll(() => serverTime.textContent(), { timeout: 20_000 }).toBe(next);
    expect(opened).toHaveLength(1);

    // The browser was handed a private local page, not a URL (which other local users could read on
    // its command line); the page led it to a one-time entry URL: replayed, it is refused, and so is
    // the window's page without the browser's cookie.
    expect(opened[0]).toMatch(/^file:\/\/\/.+\.html$/);
    const entry = new URL(entries[0] as string);
    expect(entry.pathname).toMatch(/^\/enter\//);
    expect((await fetch(entry, { redirect: "manual" })).status).toBe(403);
    expect(new URL(page.url()).pathname).toMatch(/^\/w\/[0-9a-f]{12}$/);
    expect((await fetch(page.url())).status).toBe(403);
    expect((await page.request.get(page.url())).status()).toBe(200);
    expect((await fetch(`${entry.origin}/`)).status).toBe(403);

    // Ctrl+Enter completes the window.
    await page.locator("header").click();
    await page.keyboard.press("Control+Enter");
    await expect.poll(() => page.locator("#state").textContent(), { timeout: 20_000 }).toBe("Done");
    expect(internalsOf(runtime).calls.uiMessages().messages).toMatchObject([
      { type: "close", payload: { reason: "complete" } },
    ]);
  });

  it("the fixture app: visibility, consent, messages of every type, Escape cancels, shutdown stops the server", async () => {
    const { runtime, page, opened, entries } = await session(
      [stdioDefinition("board", { command: process.execPath, args: [appFixtureServerPath] })],
      [UI_CONSENT_DENY, UI_CONSENT_ALLOW],
    );
    // App-only tools stay out of the model's view; model-only ones are there.
    const names = (await runtime.catalog.view("board")).tools.map((t) => t.name);
    expect(names).toContain("show_board");
    expect(names).toContain("admin_reset");
    expect(names).not.toContain("add_item");
    expect((await runtime.catalog.search("add item board")).hits.map((h) => h.tool.name)).not.toContain(
      "add_item",
    );
    await expect(runtime.call("board_add_item", { item: "x" })).rejects.toThrow(/No MCP tool named/);

    const shown = await runtime.call("board_show_board", { title: "Groceries" });
    expect(textOf(shown)).toBe("Groceries: pear");
    const frame = appFrame(page);
    await expect
      .poll(() => frame.locator("#status").textContent(), { timeout: 20_000 })
      .toBe("connected to pi-mcp-adapter");
    await expect
      .poll(() => frame.locator("#result").textContent())
      .toBe('{"title":"Groceries","items":["pear"]}');

    // The app document carries the CSP from the resource's metadata: no network at all here.
    const appSrc = await page.locator("#app").getAttribute("src");
    const appDoc = await fetch(new URL(appSrc as string, entries[0]));
    expect(appDoc.headers.get("content-security-policy")).toContain("connect-src 'none'");
    expect(await page.locator("#app").getAttribute("sandbox")).toBe("allow-scripts allow-forms");
    // Inside the app: an opaque origin that cannot reach the host page, and no network to this server.
    const appFrameHandle = page.frames().find((f) => f !== page.mainFrame());
    const reach = await appFrameHandle?.evaluate(async (hostUrl) => {
      // Runs in the page; the test's tsconfig has no DOM types.
      const window = globalThis as unknown as { parent: { document: { title: string } }; origin: string };
      let dom = "reachable";
      try {
        void window.parent.document.title;
      } catch {
        dom = "blocked";
      }
      let net = "reachable";
      try {
        await fetch(hostUrl);
      } catch {
        net = "blocked";
      }
      return { origin: window.origin, dom, net };
    }, entries[0] as string);
    expect(reach).toEqual({ origin: "null", dom: "blocked", net: "blocked" });

    await frame.locator("#add").click();
    await expect
      .poll(() => frame.locator("#call").textContent(), { timeout: 20_000 })
      .toMatch(/^error: The user did not allow this app to call add_item/);
    await frame.locator("#add").click();
    await expect
      .poll(() => frame.locator("#call").textContent(), { timeout: 20_000 })
      .toBe("ok: added apple");
    // Model-only: refused for the app even with consent given.
    await frame.locator("#reset").click();
    await expect
      .poll(() => frame.locator("#call").textContent(), { timeout: 20_000 })
      .toMatch(/^error: The tool "admin_reset" of "board" is for the model only/);

    await expect
      .poll(
        () =>
          JSON.stringify(
            internalsOf(runtime)
              .calls.uiMessages()
              .messages.map((m) => [m.type, m.payload]),
          ),
        {
          timeout: 20_000,
        },
      )
      .toBe(
        JSON.stringify([
          ["message", { role: "user", content: [{ type: "text", text: APP_FIXTURE_MESSAGE }] }],
          ["notify", { message: "apple added" }],
          ["intent", { intent: "celebrate", params: { confetti: true } }],
        ]),
      );

    // Escape cancels the window: a close message, the page says so, the next call opens a new window.
    await page.locator("header").click();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#state").textContent(), { timeout: 20_000 }).toBe("Cancelled");
    const [closing] = internalsOf(runtime).calls.uiMessages().messages;
    expect(closing).toMatchObject({
      type: "close",
      serverName: "board",
      toolName: "show_board",
      payload: { reason: "cancel" },
    });
    await runtime.call("board_show_board", {});
    await expect.poll(() => opened.length, { timeout: 20_000 }).toBe(2);

    const origin = new URL(entries[0] as string).origin;
    await runtime.shutdown();
    await expect(fetch(entries[1] as string)).rejects.toThrow();
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

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
    expect(runtime.turnNotes.take()).toEqual([]);
    await frame.locator("#share").click();
    await expect.poll(() => frame.locator("#call").textContent(), { timeout: 20_000 }).toBe("shared 1");
    await frame.locator("#share").click();
    await expect.poll(() => frame.locator("#call").textContent(), { timeout: 20_000 }).toBe("shared 2");
    expect(runtime.turnNotes.take()).toEqual([
      `Context from the board app (show_board):\n${APP_FIXTURE_CONTEXT} #2: pear`,
    ]);
    expect(runtime.turnNotes.take()).toEqual([]);
  });
});
