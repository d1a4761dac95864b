import type { CreateMessageParams } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import {
  cutAtStopSequence,
  SAMPLING_CHOICES,
  samplingHandler,
  samplingRequestFrom,
} from "../../src/client-features/sampling-flow.js";
import { SamplingUsage } from "../../src/client-features/sampling-usage.js";
import type { SamplingRequest } from "../../src/host.js";
import { type Host, headlessHost, RuntimeError } from "../../src/index.js";

const ask = (text: string): CreateMessageParams => ({
  messages: [{ role: "user", content: { type: "text", text } }],
  maxTokens: 50,
});

const refusal = (params: CreateMessageParams) => {
  try {
    samplingRequestFrom(params);
  } catch (error) {
    return { message: (error as Error).message, code: (error as { code: number }).code };
  }
  throw new Error("expected a refusal");
};

describe("samplingRequestFrom (text only)", () => {
  it("keeps text, system prompt, limits, stop sequences and preferences", () => {
    const request = samplingRequestFrom({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
        { role: "assistant", content: { type: "text", text: "c" } },
      ],
      maxTokens: 9,
      systemPrompt: "be brief",
      temperature: 0.2,
      stopSequences: ["END"],
      includeContext: "none",
      modelPreferences: { hints: [{ name: "haiku" }] },
    });
    expect(request).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "a\nb" } },
        { role: "assistant", content: { type: "text", text: "c" } },
      ],
      maxTokens: 9,
      systemPrompt: "be brief",
      temperature: 0.2,
      stopSequences: ["END"],
      modelPreferences: { hints: [{ name: "haiku" }] },
    });
  });

  it.each([
    ["image", { type: "image", data: "AAAA", mimeType: "image/png" }],
    ["audio", { type: "audio", data: "AAAA", mimeType: "audio/wav" }],
    ["tool_use", { type: "tool_use", id: "1", name: "x", input: {} }],
    ["tool_result", { type: "tool_result", toolUseId: "1", content: [] }],
  ])("refuses %s content with Invalid params", (type, block) => {
    expect(refusal({ messages: [{ role: "user", content: block }], maxTokens: 5 })).toEqual({
      message: `message 1 has ${type} content: sampling here is text-only (no images, audio or tool use)`,
      code: -32602,
    });
  });

  it("refuses context inclusion and tools", () => {
    expect(refusal({ ...ask("x"), includeContext: "thisServer" })).toEqual({
      message:
        'includeContext "thisServer" is not supported: sampling here is text-only and shares no session context (use "none")',
      code: -32602,
    });
    expect(refusal({ ...ask("x"), includeContext: "allServers" }).code).toBe(-32602);
    const withTools = {
      ...ask("x"),
      tools: [{ name: "t", inputSchema: { type: "object" } }],
    } as CreateMessageParams;
    expect(refusal(withTools)).toEqual({
      message: "tool use in sampling is not supported: sampling here is text-only",
      code: -32602,
    });
    expect(refusal({ messages: [], maxTokens: 1 }).message).toBe(
      "a sampling request needs at least one message",
    );
  });
});

describe("cutAtStopSequence", () => {
  it("ends the text before the earliest stop sequence", () => {
    expect(cutAtStopSequence("one two END three STOP", ["STOP", "END"])).toEqual({
      text: "one two ",
      cut: true,
    });
    expect(cutAtStopSequence("no stop here", ["END"])).toEqual({ text: "no stop here", cut: false });
    expect(cutAtStopSequence("text", undefined)).toEqual({ text: "text", cut: false });
    expect(cutAtStopSequence("text", [""])).toEqual({ text: "text", cut: false });
  });
});

describe("samplingHandler", () => {
  function host(choices: (string | undefined)[], reply = "Hello there. STOP more") {
    const titles: string[] = [];
    const requests: SamplingRequest[] = [];
    const signals: (AbortSignal | undefined)[] = [];
    const h: Host = {
      ...headlessHost(),
      hasUI: true,
      dialogs: {
        confirm: async () => false,
        input: async () => undefined,
        select: async (title, options) => {
          titles.push(title);
          expect(options).toEqual([...SAMPLING_CHOICES]);
          return choices.shift();
        },
      },
      sample: async (request, signal) => {
        requests.push(request);
        signals.push(signal);
        return {
          role: "assistant",
          content: { type: "text", text: reply },
          model: "scripted/m",
          stopReason: "endTurn",
          usage: { inputTokens: 12, outputTokens: 4 },
        };
      },
    };
    return { h, titles, requests, signals };
  }
  const context = () => ({ server: "srv", signal: new AbortController().signal });

  it("a host without a model is a RuntimeError (not_supported) naming Host.sample", () => {
    const { sample: _none, ...noModel } = host([]).h;
    let thrown: unknown;
    try {
      samplingHandler(noModel, { autoApprove: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RuntimeError);
    expect(thrown).toMatchObject({ code: "not_supported", message: expect.stringContaining("Host.sample") });
  });

  it("asks before each request; 'Allow once' runs it, the reply honours stop sequences, usage is counted", async () => {
    const { h, titles, requests, signals } = host(["Allow once", "Allow once"]);
    const usage = new SamplingUsage();
    const handle = samplingHandler(h, { autoApprove: false, usage });
    const ctx = context();
    const result = await handle({ ...ask("hi"), systemPrompt: "sys", stopSequences: ["STOP"] }, ctx);
    expect(result).toEqual({
      role: "assistant",
      content: { type: "text", text: "Hello there. " },
      model: "scripted/m",
      stopReason: "stopSequence",
    });
    expect(titles[0]).toBe(
      'MCP server "srv" asks to use your model (sampling). Allow?\nSystem prompt: sys\n[user] hi\nMax tokens: 50',
    );
    expect(signals[0]).toBe(ctx.signal);
    expect(requests[0]!.systemPrompt).toBe("sys");
    await handle(ask("again"), context());
    expect(titles).toHaveLength(2);
    expect(usage.entries()).toEqual([
      { server: "srv", requests: 2, inputTokens: 24, outputTokens: 8, models: ["scripted/m"] },
    ]);
  });

  it("bounds what the dialog shows", async () => {
    const { h, titles } = host(["Allow once"]);
    const messages = Array.from({ length: 9 }, (_, i) => ({
      role: "user" as const,
      content: { type: "text" as const, text: `${i}`.repeat(500) },
    }));
    await samplingHandler(h, { autoApprove: false })({ messages, maxTokens: 5 }, context());
    expect(titles[0]).toContain("… (500 characters)");
    expect(titles[0]).toContain("… and 3 more messages");
    expect(titles[0]!.length).toBeLessThan(3000);
  });

  it("'Allow for session' stops asking for that server only", async () => {
    const { h, titles } = host(["Allow for session", "Allow once"]);
    const handle = samplingHandler(h, { autoApprove: false });
    await handle(ask("1"), context());
    await handle(ask("2"), context());
    expect(titles).toHaveLength(1);
    await handle(ask("3"), { server: "other", signal: new AbortController().signal });
    expect(titles).toHaveLength(2);
  });

  it("'Deny' or dismissing is an error with the spec's user-rejected code; the model is not asked", async () => {
    for (const choice of ["Deny", undefined]) {
      const { h, requests } = host([choice]);
      const failure = samplingHandler(h, { autoApprove: false })(ask("x"), context());
      await expect(failure).rejects.toMatchObject({
        message: "the user denied the sampling request",
        code: -1,
      });
      expect(requests).toHaveLength(0);
    }
  });

  it("samplingAutoApprove runs without a dialog, even with no UI", async () => {
    const { h, titles, requests } = host([]);
    await samplingHandler({ ...h, hasUI: false }, { autoApprove: true })(ask("x"), context());
    expect(titles).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it("refuses unsupported content before asking anyone", async () => {
    const { h, titles, requests } = host(["Allow once"]);
    const image = {
      messages: [{ role: "user" as const, content: { type: "image", data: "A", mimeType: "image/png" } }],
      maxTokens: 5,
    };
    await expect(samplingHandler(h, { autoApprove: false })(image, context())).rejects.toMatchObject({
      code: -32602,
    });
    expect(titles).toEqual([]);
    expect(requests).toEqual([]);
  });
});
