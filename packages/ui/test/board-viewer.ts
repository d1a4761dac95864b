/**
 * A viewer over the test-kit App server (in memory) with one window shown,
 * for the viewer's tests: consent answers from a queue, windows "opened" by
 * `open` (default: recorded only). `close()` ends both.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { APP_FIXTURE_RESOURCE_URI, connectInMemory, createAppFixtureServer } from "@pi-mcp-adapter/test-kit";
import { type ToolConsentRequest, type UiBackend, UiViewer, type UiViewerOptions } from "../src/index.js";

export async function startBoardViewer(answers: boolean[], options: UiViewerOptions = {}) {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(await connectInMemory(createAppFixtureServer()));
  const backend: UiBackend = {
    readResource: async (_server, uri) => (await client.readResource({ uri })) as never,
    callTool: async (_server, name, args) => (await client.callTool({ name, arguments: args })) as never,
  };
  const asked: ToolConsentRequest[] = [];
  const opened: string[] = [];
  const viewer = new UiViewer(backend, {
    consent: "once-per-server",
    askConsent: async (request) => {
      asked.push(request);
      return answers.shift() ?? false;
    },
    open: async (url) => {
      opened.push(url);
    },
    ...options,
  });
  const close = async () => {
    await viewer.close();
    await client.close();
  };
  try {
    const shown = await viewer.show({
      serverName: "board",
      toolName: "show_board",
      resourceUri: APP_FIXTURE_RESOURCE_URI,
      args: { title: "Groceries" },
      result: {
        content: [{ type: "text", text: "Groceries: pear" }],
        structuredContent: { items: ["pear"] },
      },
    });
    return { viewer, shown, asked, opened, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Where a forwarding page (a launch page, the entry URL's answer) sends the browser. */
export function forwardedTo(html: string): string {
  return /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html)?.[1] as string;
}

/** The one-time entry URL a launch page (a `file://` URL) leads the browser to. */
export async function entryOf(launchPage: string): Promise<string> {
  return forwardedTo(await readFile(fileURLToPath(launchPage), "utf8"));
}

/** What a browser does with the entry URL: trade it for the cookie, follow its page on. */
export async function enter(entryUrl: string) {
  const response = await fetch(entryUrl, { redirect: "manual" });
  if (response.status !== 200) throw new Error(`entry URL answered ${response.status}`);
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const url = new URL(forwardedTo(await response.text()), entryUrl).href;
  return { url, cookie, get: (target: string | URL) => fetch(target, { headers: { cookie } }) };
}
