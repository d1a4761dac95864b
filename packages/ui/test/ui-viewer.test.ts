/**
 * The viewer over HTTP, the way the host page uses it (no browser here; the
 * browser test is in the runtime package): the real `AppBridge` answers an
 * app's JSON-RPC posted to `/rpc` on the page's event stream, tool calls
 * wait for consent and reach the test-kit App server, messages queue, and
 * everything without the session cookie — or from a foreign Host, or through
 * an entry URL used before — is refused.
 */
import { request as httpRequest } from "node:http";
import { APP_FIXTURE_RESOURCE_URI } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { ENTRY_TTL_MS, LoopbackServer } from "../src/loopback-server.js";
import { enter, entryOf, startBoardViewer } from "./board-viewer.js";

let open: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function start(answers: boolean[], goneAfterMs?: number) {
  const started = await startBoardViewer(answers, goneAfterMs !== undefined ? { goneAfterMs } : {});
  open = started;
  return { ...started, entry: await entryOf(started.shown.url) };
}

/** The host page's side: an event stream reader and the relay POSTs. */
async function page({ url, cookie }: { url: string; cookie: string }) {
  const events = await fetch(`${url}/events`, { headers: { cookie } });
  expect(events.headers.get("content-type")).toBe("text/event-stream");
  const reader = (events.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const next = async (): Promise<Record<string, unknown>> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split("\n").find((l) => l.startsWith("data: "));
        const event = block.split("\n").find((l) => l.startsWith("event: "));
        if (event) return { event: event.slice(7), data: data?.slice(6) };
        if (data) return JSON.parse(data.slice(6)) as Record<string, unknown>;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("event stream ended");
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const post = async (endpoint: string, body: unknown) => {
    const response = await fetch(`${url}/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(204);
  };
  return { next, post, close: () => reader.cancel() };
}

const rpc = (id: number, method: string, params: unknown) => ({ jsonrpc: "2.0", id, method, params });

describe("UiViewer over HTTP", () => {
  it("bridges an app: initialize, tool input and result, consented tool calls, messages, close", async () => {
    const { viewer, shown, asked, opened, entry } = await start([false, true]);
    expect(opened).toEqual([shown.url]);
    expect(shown.url).toMatch(/^file:\/\/\/.+\.html$/);
    expect(entry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/enter\/[\w-]{32}$/);

    const browser = await enter(entry);
    expect(browser.url).toMatch(new RegExp(`/w/${shown.sessionId}$`));
    const host = await (await browser.get(browser.url)).text();
    const appPath = /data-src="([^"]+)"/.exec(host)?.[1] as string;
    expect(host).toContain('sandbox="allow-scripts allow-forms"');
    const app = await fetch(new URL(appPath, entry));
    expect(await app.text()).toContain("board-app");
    expect(app.headers.get("content-security-policy")).toContain("connect-src 'none'");

    const p = await page(browser);
    await p.post(
      "rpc",
      rpc(1, "ui/initialize", {
        appInfo: { name: "a", version: "1" },
        appCapabilities: {},
        protocolVersion: "2026-01-26",
      }),
    );
    const init = await p.next();
    expect(init).toMatchObject({
      id: 1,
      result: { hostInfo: { name: "pi-mcp-adapter" }, hostCapabilities: { serverTools: {} } },
    });
    await p.post("rpc", { jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
    expect(await p.next()).toMatchObject({
      method: "ui/notifications/tool-input",
      params: { arguments: { title: "Groceries" } },
    });
    expect(await p.next()).toMatchObject({
      method: "ui/notifications/tool-result",
      params: { structuredContent: { items: ["pear"] } },
    });

    await p.post("rpc", rpc(2, "tools/call", { name: "add_item", arguments: { item: "fig" } }));
    expect(await p.next()).toMatchObject({
      id: 2,
      result: { isError: true, content: [{ text: "The user did not allow this app to call add_item" }] },
    });
    await p.post("rpc", rpc(3, "tools/call", { name: "add_item", arguments: { item: "fig" } }));
    expect(await p.next()).toMatchObject({
      id: 3,
      result: { structuredContent: { items: ["pear", "fig"] } },
    });
    // Granted once for the server: the next call is not asked again.
    await p.post("rpc", rpc(4, "tools/call", { name: "add_item", arguments: { item: "kiwi" } }));
    expect(await p.next()).toMatchObject({ id: 4, result: { content: [{ text: "added kiwi" }] } });
    expect(asked).toEqual([
      { serverName: "board", toolName: "add_item", appToolName: "show_board" },
      { serverName: "board", toolName: "add_item", appToolName: "show_board" },
    ]);

    await p.post("rpc", rpc(5, "resources/read", { uri: APP_FIXTURE_RESOURCE_URI }));
    expect(await p.next()).toMatchObject({
      id: 5,
      result: { contents: [{ uri: APP_FIXTURE_RESOURCE_URI }] },
    });

    await p.post("rpc", rpc(6, "ui/message", { role: "user", content: [{ type: "text", text: "hi" }] }));
    expect(await p.next()).toMatchObject({ id: 6, result: {} });
    await p.post("action", { type: "prompt", payload: { prompt: "Summarise the board" }, messageId: "m1" });
    expect(await p.next()).toEqual({
      type: "ui-message-response",
      messageId: "m1",
      payload: { response: { queued: true } },
    });
    await p.post("action", { type: "ui-size-change", payload: { height: 10 } });
    await p.post("action", { type: "open-cart", payload: { id: 7 }, messageId: "m2" });
    expect(await p.next()).toMatchObject({ type: "ui-message-response" });

    // Calling the tool again pushes into the same window.
    const again = await viewer.show({
      serverName: "board",
      toolName: "show_board",
      resourceUri: APP_FIXTURE_RESOURCE_URI,
      args: {},
      result: { content: [{ type: "text", text: "Board: pear, fig, kiwi" }] },
    });
    // The open window gets the new call; its URL is a fresh entry URL (the first one is spent).
    expect(again).toMatchObject({ sessionId: shown.sessionId, reused: true });
    expect(again.url).toMatch(/\/enter\//);
    expect(again.url).not.toBe(entry);
    expect(await p.next()).toMatchObject({ method: "ui/notifications/tool-input" });
    expect(await p.next()).toMatchObject({
      method: "ui/notifications/tool-result",
      params: { content: [{ text: "Board: pear, fig, kiwi" }] },
    });

    await p.post("close", { reason: "complete" });
    expect(await p.next()).toEqual({ event: "closed", data: "complete" });
    const { messages } = viewer.takeMessages();
    expect(messages.map((m) => [m.type, m.payload])).toEqual([
      ["message", { role: "user", content: [{ type: "text", text: "hi" }] }],
      ["prompt", { prompt: "Summarise the board" }],
      ["intent", { intent: "open-cart", params: { id: 7 } }],
      ["close", { reason: "complete" }],
    ]);
    for (const m of messages) {
      expect(m).toMatchObject({ sessionId: shown.sessionId, serverName: "board", toolName: "show_board" });
      expect(Number.isNaN(Date.parse(m.timestamp))).toBe(false);
    }
    expect(viewer.takeMessages().messages).toEqual([]);
    expect(viewer.sessions()).toEqual([]);
  });

  it("a window whose page went away (tab closed) closes, and the next call opens a new one", async () => {
    const { viewer, shown, entry } = await start([], 100);
    const p = await page(await enter(entry));
    await p.close();
    await expect.poll(() => viewer.sessions().length).toBe(0);
    expect(viewer.takeMessages().messages).toMatchObject([{ type: "close", payload: { reason: "gone" } }]);
    const next = await viewer.show({
      serverName: "board",
      toolName: "show_board",
      resourceUri: APP_FIXTURE_RESOURCE_URI,
      args: {},
      result: { content: [] },
    });
    expect(next.reused).toBe(false);
    expect(next.sessionId).not.toBe(shown.sessionId);
  });

  it("refuses a replayed entry URL, requests without the cookie or with another, a foreign Host; stops at close", async () => {
    const { viewer, shown, entry } = await start([]);
    const browser = await enter(entry);
    const url = new URL(browser.url);
    expect(browser.cookie).toMatch(/^pi_mcp_ui_\d+=[\w-]{32}$/);
    expect(entry).not.toContain(browser.cookie.split("=")[1]);
    expect((await browser.get(url)).status).toBe(200);
    // Whoever read the entry URL from the browser's command line gets nothing with it now.
    const replayed = await fetch(entry, { redirect: "manual" });
    expect(replayed.status).toBe(403);
    expect(await replayed.text()).toBe("Forbidden: this link was used already or has expired");
    const noCookie = await fetch(url);
    expect(noCookie.status).toBe(403);
    expect(await noCookie.text()).toContain("Forbidden: missing or wrong session cookie");
    const otherCookie = await fetch(url, {
      headers: { cookie: `${browser.cookie.split("=")[0]}=${"x".repeat(32)}` },
    });
    expect(otherCookie.status).toBe(403);
    const refused = await fetch(`${url.origin}/`);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe("Forbidden: missing or wrong token");
    expect((await fetch(`${url.origin}/enter/${"x".repeat(32)}`)).status).toBe(403);
    const post = await fetch(`${url}/rpc`, {
      method: "POST",
      body: "{",
      headers: { cookie: browser.cookie },
    });
    expect(post.status).toBe(400);
    expect((await browser.get(url.href.replace(shown.sessionId, "000000000000"))).status).toBe(404);
    const rebound = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        { headers: { host: "attacker.example", cookie: browser.cookie } },
        (res) => {
          let body = "";
          res.on("data", (d: Buffer) => {
            body += d.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(rebound).toEqual({ status: 403, body: "Forbidden: unexpected Host header" });
    await viewer.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe("LoopbackServer entry URLs", () => {
  it("an entry URL not loaded within its time is refused", async () => {
    let now = 1_000;
    const server = new LoopbackServer(() => now);
    await server.start();
    try {
      server.route("w", (_request, response) => void response.end("page"), { session: true });
      const late = server.entryUrl("/w/x");
      const onTime = server.entryUrl("/w/x");
      now += ENTRY_TTL_MS;
      expect((await fetch(late, { redirect: "manual" })).status).toBe(403);
      now = 1_000;
      expect((await fetch(onTime, { redirect: "manual" })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
