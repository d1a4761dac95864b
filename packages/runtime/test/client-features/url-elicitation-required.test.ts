import { describe, expect, it } from "vitest";
import {
  explainUrlElicitationRequired,
  URL_OPEN,
  URL_OPEN_MYSELF,
  urlElicitationsOf,
} from "../../src/client-features/elicitation-flow.js";
import { headlessHost } from "../../src/index.js";
import { uiHost } from "../hosts.js";

/** The shape the SDK's error takes once the transport wrapped it (`TransportError` → `McpError`). */
const wrapped = (data: unknown) => {
  const cause = Object.assign(new Error("MCP error -32042: needs a browser"), { code: -32042, data });
  return Object.assign(new Error("everything: tools/call x failed"), { code: "request_failed", cause });
};

describe("urlElicitationsOf", () => {
  it("finds the URLs anywhere in the cause chain", () => {
    const error = wrapped({
      elicitations: [
        { mode: "url", url: "https://a.example/1", message: "Log in", elicitationId: "e1" },
        { mode: "url", url: "https://b.example/2" },
        { mode: "url", message: "no url" },
      ],
    });
    expect(urlElicitationsOf(error)).toEqual([
      { url: "https://a.example/1", message: "Log in", elicitationId: "e1" },
      { url: "https://b.example/2", message: "" },
    ]);
    expect(urlElicitationsOf(wrapped(undefined))).toEqual([]);
  });

  it("is undefined for any other error", () => {
    expect(urlElicitationsOf(new Error("boom"))).toBeUndefined();
    expect(urlElicitationsOf(Object.assign(new Error("x"), { code: -32602 }))).toBeUndefined();
    expect(urlElicitationsOf(undefined)).toBeUndefined();
  });
});

describe("explainUrlElicitationRequired", () => {
  const list = [{ url: "https://login.example/start", message: "Sign in" }];

  it("headless: opens nothing and tells the model a person must do the step, then retry", async () => {
    const text = await explainUrlElicitationRequired(headlessHost(), true, "srv", "deploy", list);
    expect(text).toBe(
      'MCP server "srv" needs the user to complete a step in a web browser before deploy can run (URL elicitation required, -32042). ' +
        "This session cannot ask the user, so nothing was opened. Ask the user to complete it:\n" +
        "- https://login.example/start (Sign in)\n" +
        "Then retry the original call with the same arguments.",
    );
  });

  it("`elicitation: false` behaves as headless even with a UI", async () => {
    const asked: string[] = [];
    const host = uiHost(async (title) => (asked.push(title) ? undefined : undefined));
    expect(await explainUrlElicitationRequired(host, false, "srv", "deploy", list)).toContain(
      "nothing was opened",
    );
    expect(asked).toEqual([]);
  });

  it("an unsafe URL is never shown, in either mode", async () => {
    const bad = [{ url: "javascript:alert(1)", message: "" }];
    expect(await explainUrlElicitationRequired(headlessHost(), true, "srv", "t", bad)).toContain(
      "- a URL refused as unsafe: the scheme javascript: is not allowed",
    );
    const asked: string[] = [];
    const host = uiHost(async (title) => (asked.push(title) ? undefined : undefined));
    const text = await explainUrlElicitationRequired(host, true, "srv", "t", bad);
    expect(text).toContain("refused as unsafe");
    expect(text).toContain("Do not retry unless the user asks to.");
    expect(asked).toEqual([]);
  });

  it("a host that opens URLs opens the page after consent", async () => {
    const opened: string[] = [];
    const host = uiHost(async (_title, choices) => choices[0], {
      openUrl: async (url) => {
        opened.push(url);
      },
    });
    const text = await explainUrlElicitationRequired(host, true, "srv", "t", list);
    expect(opened).toEqual(["https://login.example/start"]);
    expect(text).toContain("the user agreed to open it");
    expect(URL_OPEN).not.toBe(URL_OPEN_MYSELF);
  });

  it("a server that names no URL gets no dialog", async () => {
    expect(await explainUrlElicitationRequired(headlessHost(), true, "srv", "t", [])).toContain(
      "The server named no URL; the call cannot go ahead.",
    );
  });
});
