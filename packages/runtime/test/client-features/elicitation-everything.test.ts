/**
 * Elicitation through the runtime against server-everything over stdio: a
 * form becomes the host's dialogs, URL mode asks consent (or refuses an unsafe
 * URL), and a -32042 URL-required error runs the URL flow. The "user" answers
 * scripted dialogs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { URL_DECLINE, URL_OPEN_MYSELF } from "../../src/client-features/elicitation-flow.js";
import { FORM_START, MULTI_DONE } from "../../src/client-features/elicitation-form.js";
import { URL_STOP_WAITING } from "../../src/client-features/url-elicitation-wait.js";
import { everything, shutdownOpen, text, uiHost } from "./everything-host.js";

afterEach(shutdownOpen);

describe("elicitation against server-everything", () => {
  it("a form becomes dialogs naming the server; the answers reach the server", async () => {
    const { host, asked } = uiHost([
      FORM_START[0],
      "Ada Lovelace", // name
      true, // check
      "", // firstLine: default
      "ada@example", // email: invalid, asked again
      "ada@example.com",
      "https://ada.dev", // homepage
      "1815-12-10", // birthdate
      "500", // integer: above 100, asked again
      "7",
      "", // number: default 3.14
      "Rachel", // untitled single enum
      "[ ] Piano", // untitled multi: Guitar (default) + Piano
      MULTI_DONE,
      "Wonder Woman", // titled single
      MULTI_DONE, // titled multi: default fish-1
      "Dogs", // legacy enumNames
      "Send",
    ]);
    const runtime = await everything(host);
    const result = await runtime.call("everything_trigger-elicitation-request", {});
    const out = text(result);
    expect(out).toContain("✅ User provided the requested information!");
    expect(out).toContain("- Name: Ada Lovelace");
    expect(out).toContain("- Email: ada@example.com");
    expect(out).toContain("- Favorite Integer: 7");
    expect(out).toContain("- Favorite Number: 3.14");
    const raw = JSON.parse(out.slice(out.indexOf("Raw result:") + "Raw result:".length)) as {
      content: Record<string, unknown>;
    };
    expect(raw.content).toEqual({
      name: "Ada Lovelace",
      check: true,
      firstLine: "It was a dark and stormy night.",
      email: "ada@example.com",
      homepage: "https://ada.dev",
      birthdate: "1815-12-10",
      integer: 7,
      number: 3.14,
      untitledSingleSelectEnum: "Rachel",
      untitledMultipleSelectEnum: ["Guitar", "Piano"],
      titledSingleSelectEnum: "hero-3",
      titledMultipleSelectEnum: ["fish-1"],
      legacyTitledEnum: "pet-2",
    });
    expect(asked.every((a) => a.title.includes('MCP server "everything"'))).toBe(true);
    expect(asked.find((a) => a.title.includes("⚠"))?.title).toContain(
      '"ada@example": enter an email address',
    );
    expect(asked.at(-1)!.title).toContain("Send these answers to MCP server");
  });

  it("dismissing a field is cancel, 'Decline' is decline", async () => {
    const cancel = uiHost([FORM_START[0], undefined]);
    const runtime = await everything(cancel.host);
    expect(text(await runtime.call("everything_trigger-elicitation-request", {}))).toContain(
      "⚠️ User cancelled the elicitation dialog.",
    );
    await runtime.shutdown();
    const decline = uiHost(["Decline"]);
    const again = await everything(decline.host);
    expect(text(await again.call("everything_trigger-elicitation-request", {}))).toContain(
      "❌ User declined to provide the requested information.",
    );
  });

  it("URL mode asks consent showing server, host and full URL", async () => {
    const { host, asked } = uiHost([URL_OPEN_MYSELF]);
    const runtime = await everything(host);
    const url = "https://example.com/checkout?order=42";
    const result = await runtime.call("everything_trigger-url-elicitation", {
      url,
      message: "Pay for order 42",
    });
    expect(text(result)).toContain("✅ User completed the URL elicitation flow.");
    expect(asked).toEqual([
      {
        kind: "select",
        title: `MCP server "everything" asks you to open a web page:\nPay for order 42\nHost: example.com\nURL: ${url}`,
        choices: [URL_OPEN_MYSELF, URL_DECLINE],
      },
      // Then the wait for the browser step, which ends with the call (this server does not wait for it).
      {
        kind: "select",
        title: expect.stringContaining(
          'MCP server "everything" is waiting for you to finish in your browser (example.com).',
        ),
        choices: [URL_STOP_WAITING],
      },
    ]);
  });

  it("URL mode refuses an unsafe URL before any dialog and declines", async () => {
    const { host, asked, notices } = uiHost([]);
    const runtime = await everything(host);
    const result = await runtime.call("everything_trigger-url-elicitation", {
      url: "http://example.com/login",
    });
    expect(text(result)).toContain("❌ User declined to open the URL");
    expect(asked).toEqual([]);
    expect(notices[0]).toContain(
      'MCP server "everything" asked you to open a URL that was refused: plain http',
    );
  });

  it("a -32042 URL-required error shows the URL flow and tells the model to retry; the retry goes through", async () => {
    const { host, asked } = uiHost([URL_OPEN_MYSELF, URL_OPEN_MYSELF]);
    const runtime = await everything(host);
    const args = { url: "https://example.com/done", errorPath: true };
    const first = await runtime.call("everything_trigger-url-elicitation", args);
    expect(first.isError).toBe(true);
    expect(first.details).toMatchObject({ error: "url_elicitation_required" });
    expect(text(first)).toContain(
      'MCP server "everything" needs the user to complete a step in a web browser before trigger-url-elicitation can run',
    );
    expect(text(first)).toContain("- https://modelcontextprotocol.io/: the user agreed to open it");
    expect(text(first)).toContain("retry the original call with the same arguments");
    expect(asked[0]!.title).toContain("Host: modelcontextprotocol.io");
    const retry = await runtime.call("everything_trigger-url-elicitation", args);
    expect(text(retry)).toContain("✅ User completed the URL elicitation flow.");
  });

  it("a -32042 error declined by the user tells the model not to retry", async () => {
    const { host } = uiHost([URL_DECLINE]);
    const runtime = await everything(host);
    const result = await runtime.call("everything_trigger-url-elicitation", {
      url: "https://example.com/x",
      errorPath: true,
    });
    expect(text(result)).toContain("the user chose decline");
    expect(text(result)).toContain("Do not retry unless the user asks to.");
  });
});
