/**
 * Sampling through the runtime against server-everything over stdio, the same
 * dialogs and model for a 2026-07-28 server's input_required call, the model
 * call aborted when the server's request ends, and the capabilities declared
 * from the host and settings deciding which tools the server registers.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { clientHandlersFor } from "../../src/client-features/client-handlers.js";
import { FORM_START } from "../../src/client-features/elicitation-form.js";
import { SAMPLING_CHOICES } from "../../src/client-features/sampling-flow.js";
import { createRuntime, type Host, headlessHost } from "../../src/index.js";
import { internalsOf } from "../../src/runtime-internals.js";
import { everything, live, shutdownOpen, text, toolNames, uiHost } from "./everything-host.js";

afterEach(shutdownOpen);

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
    const server = fileURLToPath(new URL("../fixtures/v2-input-required-server.mjs", import.meta.url));
    live.open = await createRuntime({
      cwd: process.cwd(),
      config: { mcpServers: { modern: { command: process.execPath, args: [server], protocol: "auto" } } },
      metadataCacheFile: false,
      npxCacheFile: false,
      host,
    });
    const result = await live.open.call("modern_ask", {});
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
    live.open = undefined;
    expect(seen?.aborted).toBe(true);
    await pending;
  });
});

describe("capabilities follow the host and the settings", () => {
  const interactive = ["trigger-elicitation-request", "trigger-url-elicitation", "trigger-sampling-request"];
  const listed = async (host: Host, settings?: Record<string, unknown>) => {
    const names = await toolNames(await everything(host, settings));
    await live.open?.shutdown();
    live.open = undefined;
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
