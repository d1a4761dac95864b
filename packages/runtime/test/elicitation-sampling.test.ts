/**
 * Elicitation and sampling through the runtime against server-everything over
 * stdio: the capabilities declared from the host and settings decide which
 * tools the server registers, and its requests come back through the host's
 * dialogs and model. The "user" answers scripted dialogs.
 */
import { fileURLToPath } from "node:url";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { clientHandlersFor } from "../src/client-features/client-handlers.js";
import { URL_DECLINE, URL_OPEN_MYSELF } from "../src/client-features/elicitation-flow.js";
import { FORM_START, MULTI_DONE } from "../src/client-features/elicitation-form.js";
import { SAMPLING_CHOICES } from "../src/client-features/sampling-flow.js";
import { URL_STOP_WAITING } from "../src/client-features/url-elicitation-wait.js";
import type { SamplingRequest } from "../src/host.js";
import {
  type AdapterRuntime,
  type CallResult,
  createRuntime,
  type Host,
  headlessHost,
} from "../src/index.js";
import { internalsOf } from "../src/runtime-internals.js";

interface Asked {
  kind: "select" | "input" | "confirm";
  title: string;
  choices?: string[];
}

/** A host with a UI whose user answers each dialog in turn, and a model that echoes the last message. */
function uiHost(answers: (string | boolean | undefined)[]) {
  const asked: Asked[] = [];
  const sampled: SamplingRequest[] = [];
  const notices: string[] = [];
  const next = () => answers.shift();
  const host: Host = {
    ...headlessHost({ notify: (message) => notices.push(message) }),
    hasUI: true,
    dialogs: {
      select: async (title, choices) => {
        asked.push({ kind: "select", title, choices });
        return next() as string | undefined;
      },
      input: async (title) => {
        asked.push({ kind: "input", title });
        return next() as string | undefined;
      },
      confirm: async (title) => {
        asked.push({ kind: "confirm", title });
        return next() as boolean;
      },
    },
    sample: async (request) => {
      sampled.push(request);
      const last = request.messages.at(-1)?.content as { text: string };
      return {
        role: "assistant",
        content: { type: "text", text: `model says: ${last.text}` },
        model: "test/echo",
        stopReason: "endTurn",
        usage: { inputTokens: 20, outputTokens: 6 },
      };
    },
  };
  return { host, asked, sampled, notices };
}

let open: AdapterRuntime | undefined;
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
});

async function everything(host: Host, settings: Record<string, unknown> = {}): Promise<AdapterRuntime> {
  open = await createRuntime({
    cwd: process.cwd(),
    config: {
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      settings,
    },
    metadataCacheFile: false,
    npxCacheFile: false,
    host,
  });
  return open;
}

const text = (result: CallResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const toolNames = async (runtime: AdapterRuntime) => (await runtime.catalog.view()).tools.map((t) => t.name);

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

describe("sampling against server-everything", () => {
  it("asks, then the host's model answers; the reply reaches the tool result and usage is counted", async () => {
    const { host, asked, sampled } = uiHost(["Allow once"]);
    const runtime = await everything(host);
    const result = await runtime.call("everything_trigger-sampling-request", {
      prompt: "a haiku",
      maxTokens: 30,
    });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("model says: Resource trigger-sampling-request context: a haiku");
    expect(text(result)).toContain('"model": "test/echo"');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.choices).toEqual([...SAMPLING_CHOICES]);
    expect(asked[0]!.title).toContain('MCP server "everything" asks to use your model (sampling)');
    expect(asked[0]!.title).toContain("System prompt: You are a helpful test server.");
    expect(sampled[0]).toMatchObject({
      systemPrompt: "You are a helpful test server.",
      maxTokens: 30,
      temperature: 0.7,
    });
    expect(internalsOf(runtime).samplingUsage.entries()).toEqual([
      { server: "everything", requests: 1, inputTokens: 20, outputTokens: 6, models: ["test/echo"] },
    ]);
  });

  it("Deny reaches the server as an error, and the model is never asked", async () => {
    const { host, sampled } = uiHost(["Deny"]);
    const runtime = await everything(host);
    const result = await runtime.call("everything_trigger-sampling-request", { prompt: "x" });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("the user denied the sampling request");
    expect(sampled).toEqual([]);
  });
});

describe("2026-07-28 servers (input_required)", () => {
  it("the same form dialogs and model answer an input_required tool call, over the SDK v2 client", async () => {
    const { host, asked, sampled } = uiHost([FORM_START[0], "Grace", "Send", "Allow once"]);
    const server = fileURLToPath(new URL("./fixtures/v2-input-required-server.mjs", import.meta.url));
    open = await createRuntime({
      cwd: process.cwd(),
      config: { mcpServers: { modern: { command: process.execPath, args: [server], protocol: "auto" } } },
      metadataCacheFile: false,
      npxCacheFile: false,
      host,
    });
    const result = await open.call("modern_ask", {});
    expect(result.isError).toBe(false);
    expect(JSON.parse(text(result))).toEqual({
      name: { action: "accept", content: { name: "Grace" } },
      greeting: {
        role: "assistant",
        content: { type: "text", text: "model says: Say hi" },
        model: "test/echo",
        stopReason: "endTurn",
      },
    });
    expect(asked.map((a) => a.title.split("\n")[0])).toEqual([
      'MCP server "modern" asks for input:',
      'MCP server "modern" · Name (required)',
      'Send these answers to MCP server "modern"?',
      'MCP server "modern" asks to use your model (sampling). Allow?',
    ]);
    expect(sampled).toHaveLength(1);
  });
});

describe("sampling cancellation", () => {
  it("the server's request ending (here: the connection closing) aborts the model call", async () => {
    let seen: AbortSignal | undefined;
    let sampling!: () => void;
    const asked = new Promise<void>((resolve) => {
      sampling = resolve;
    });
    const host: Host = {
      ...headlessHost(),
      sample: (_request, signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          sampling();
          signal?.addEventListener("abort", () => reject(new Error("model call aborted")));
        }),
    };
    const runtime = await everything(host, { samplingAutoApprove: true });
    const pending = runtime
      .call("everything_trigger-sampling-request", { prompt: "x" })
      .catch((e: Error) => e);
    await asked;
    expect(seen?.aborted).toBe(false);
    await runtime.shutdown();
    open = undefined;
    expect(seen?.aborted).toBe(true);
    await pending;
  });
});

describe("capabilities follow the host and the settings", () => {
  const interactive = ["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request"];
  const listed = async (host: Host, settings?: Record<string, unknown>) => {
    const names = await toolNames(await everything(host, settings));
    await open?.shutdown();
    open = undefined;
    return interactive.filter((tool) => names.includes(tool));
  };

  it("headless declares neither, so the server offers none of those tools", async () => {
    const { host } = uiHost([]);
    expect(await listed({ ...host, hasUI: false })).toEqual([]);
    expect(await listed(headlessHost())).toEqual([]);
  });

  it("headless with samplingAutoApprove declares sampling only, and it runs without a dialog", async () => {
    const { host, asked } = uiHost([]);
    const headless = { ...host, hasUI: false };
    expect(await listed(headless, { samplingAutoApprove: true })).toEqual(["trigger-sampling-request"]);
    const runtime = await everything(headless, { samplingAutoApprove: true });
    expect(text(await runtime.call("everything_trigger-sampling-request", { prompt: "hi" }))).toContain(
      "model says:",
    );
    expect(asked).toEqual([]);
  });

  it("with a UI both are declared; `sampling: false` and `elicitation: false` turn each off", async () => {
    const { host } = uiHost([]);
    expect(await listed(host)).toEqual(interactive);
    expect(await listed(host, { sampling: false })).toEqual(interactive.slice(0, 2));
    expect(await listed(host, { elicitation: false })).toEqual(["trigger-sampling-request"]);
    expect(clientHandlersFor({ ...host, sample: undefined })).not.toHaveProperty("sampling");
  });
});
