/**
 * The Pi sampler on Pi 0.73's path (the registry resolves credentials, pi-ai
 * sends the request) against the scripted OpenAI-compatible model. Pi 1.6's
 * path (`modelRegistry.streamSimple`) runs in the e2e tests.
 */
import type { Model } from "@mariozechner/pi-ai";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { startScriptedModel } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { pickModelByHints, piSampler } from "../../src/pi/host/pi-sampler.js";

// biome-ignore lint/suspicious/noExplicitAny: Pi's models are generic over their API
type AnyModel = Model<any>;

const model = (id: string, baseUrl: string): AnyModel => ({
  id,
  name: id,
  api: "openai-completions",
  provider: "fake",
  baseUrl,
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 8000,
  maxTokens: 1000,
  compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
});

function context(current: AnyModel | undefined, available: AnyModel[]): ExtensionContext {
  return {
    model: current,
    modelRegistry: {
      getAvailable: () => available,
      getApiKeyAndHeaders: async () => ({ ok: true, apiKey: "sk-test", headers: { "x-extra": "1" } }),
    },
  } as unknown as ExtensionContext;
}

describe("piSampler", () => {
  it("runs on the current model with Pi's credentials, the system prompt, history and limits", async () => {
    await using scripted = await startScriptedModel([{ text: "a reply" }]);
    const current = model("fake-model", scripted.baseUrl);
    const sample = piSampler(context(current, [current]));
    const response = await sample({
      systemPrompt: "be brief",
      messages: [
        { role: "user", content: { type: "text", text: "hi" } },
        { role: "assistant", content: { type: "text", text: "hello" } },
        { role: "user", content: { type: "text", text: "again" } },
      ],
      maxTokens: 33,
      temperature: 0.3,
    });
    expect(response).toEqual({
      role: "assistant",
      content: { type: "text", text: "a reply" },
      model: "fake/fake-model",
      stopReason: "endTurn",
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const request = scripted.requests[0]!;
    expect(request.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "again" },
    ]);
    expect(request.temperature).toBe(0.3);
    expect(request.max_completion_tokens ?? request.max_tokens).toBe(33);
    expect(scripted.authorizations[0]).toBe("Bearer sk-test");
  });

  it("a modelPreferences hint picks a registered model; no match keeps the current one", async () => {
    await using scripted = await startScriptedModel([{ text: "one" }, { text: "two" }]);
    const current = model("fake-model", scripted.baseUrl);
    const other = model("tiny-haiku", scripted.baseUrl);
    const sample = piSampler(context(current, [current, other]));
    const ask = (hint: string) =>
      sample({
        messages: [{ role: "user", content: { type: "text", text: "x" } }],
        maxTokens: 5,
        modelPreferences: { hints: [{ name: hint }] },
      });
    expect((await ask("haiku")).model).toBe("fake/tiny-haiku");
    expect(scripted.requests[0]!.model).toBe("tiny-haiku");
    expect((await ask("opus")).model).toBe("fake/fake-model");
  });

  it("fails clearly without a model, and when the provider fails", async () => {
    const request = {
      messages: [{ role: "user" as const, content: { type: "text", text: "x" } }],
      maxTokens: 5,
    };
    await expect(piSampler(context(undefined, []))(request)).rejects.toThrow(
      "Pi has no model selected, so it cannot answer a sampling request",
    );
    const dead = model("fake-model", "http://127.0.0.1:9/v1");
    await expect(piSampler(context(dead, [dead]))(request)).rejects.toThrow("the model request failed:");
  });

  it("a cancelled request aborts the model call", async () => {
    await using scripted = await startScriptedModel([{ text: "late" }]);
    const current = model("fake-model", scripted.baseUrl);
    const controller = new AbortController();
    controller.abort();
    const request = {
      messages: [{ role: "user" as const, content: { type: "text", text: "x" } }],
      maxTokens: 5,
    };
    await expect(piSampler(context(current, [current]))(request, controller.signal)).rejects.toThrow(
      "the model request was cancelled",
    );
  });
});

describe("pickModelByHints", () => {
  const models = [
    { id: "claude-3-5-haiku", name: "Claude Haiku" },
    { id: "gpt-4o", name: "GPT-4o" },
    { id: "local-llama" },
  ];
  it("takes the first hint that matches an id or name, case-insensitively", () => {
    expect(pickModelByHints(models, { hints: [{ name: "sonnet" }, { name: "GPT" }] })?.id).toBe("gpt-4o");
    expect(pickModelByHints(models, { hints: [{ name: "haiku" }, { name: "gpt" }] })?.id).toBe(
      "claude-3-5-haiku",
    );
    expect(pickModelByHints(models, { hints: [{ name: "Llama" }] })?.id).toBe("local-llama");
  });
  it("gives undefined (the current model) without a match or hints", () => {
    expect(pickModelByHints(models, { hints: [{ name: "gemini" }] })).toBeUndefined();
    expect(pickModelByHints(models, { hints: [{}, { name: " " }] })).toBeUndefined();
    expect(pickModelByHints(models, { costPriority: 1 })).toBeUndefined();
    expect(pickModelByHints(models, undefined)).toBeUndefined();
  });
});
