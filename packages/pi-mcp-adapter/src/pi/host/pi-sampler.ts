/**
 * The runtime's `HostSampler` on Pi's own model API: the session's current
 * model (or a registered one a server's `modelPreferences.hints` name), with
 * the provider and credentials Pi itself uses. Pi 1.6 runs the request
 * through `ctx.modelRegistry.streamSimple` (request-time auth); Pi 0.73 has
 * no such method, so the registry resolves the key and headers and pi-ai's
 * `completeSimple` sends the request. pi-ai is imported only on that path,
 * where Pi aliases it to its own copy: the package entry (and Pi 1.6) never
 * load it, so programs importing `pi-mcp-adapter` outside Pi need no pi-ai.
 */
import type { AssistantMessage, Context, Message, Model } from "@mariozechner/pi-ai";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { HostSampler, SamplingResponse } from "@pi-mcp-adapter/runtime";

// biome-ignore lint/suspicious/noExplicitAny: Pi's models are generic over their API
type AnyModel = Model<any>;

/** Pi 1.6's registry method (absent in 0.73's types). */
interface StreamingRegistry {
  streamSimple(
    model: AnyModel,
    context: Context,
    options?: { maxTokens?: number; temperature?: number; signal?: AbortSignal },
  ): { result(): Promise<AssistantMessage> };
}

export function piSampler(ctx: ExtensionContext): HostSampler {
  return async (request, signal) => {
    const current = ctx.model;
    if (!current) throw new Error("Pi has no model selected, so it cannot answer a sampling request");
    const registry = ctx.modelRegistry;
    const model = pickModelByHints(available(registry), request.modelPreferences) ?? current;
    const context: Context = {
      ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
      messages: request.messages.map((m) => toPiMessage(m.role, textOf(m.content), model)),
    };
    const options = {
      maxTokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(signal ? { signal } : {}),
    };
    const streaming = registry as unknown as Partial<StreamingRegistry>;
    let answer: AssistantMessage;
    if (typeof streaming.streamSimple === "function") {
      answer = await streaming.streamSimple.call(registry, model, context, options).result();
    } else {
      const auth = await registry.getApiKeyAndHeaders(model);
      if (!auth.ok) throw new Error(`no credentials for ${model.provider}/${model.id}: ${auth.error}`);
      const { completeSimple } = await import("@mariozechner/pi-ai");
      answer = await completeSimple(model, context, {
        ...options,
        ...(auth.apiKey ? { apiKey: auth.apiKey } : {}),
        ...(auth.headers ? { headers: auth.headers } : {}),
      });
    }
    return toResponse(answer, model);
  };
}

/**
 * The model a request's `modelPreferences.hints` pick: the first hint that is
 * a substring (case-insensitive) of a candidate's id or name wins, hints in
 * the server's order; no match (or no hints) is `undefined`, meaning "the
 * current model".
 */
export function pickModelByHints<M extends { id: string; name?: string }>(
  candidates: readonly M[],
  modelPreferences: Record<string, unknown> | undefined,
): M | undefined {
  const hints = (modelPreferences as { hints?: unknown } | undefined)?.hints;
  if (!Array.isArray(hints)) return undefined;
  for (const hint of hints) {
    const name = (hint as { name?: unknown } | undefined)?.name;
    if (typeof name !== "string" || name.trim() === "") continue;
    const wanted = name.trim().toLowerCase();
    const match = candidates.find(
      (m) => m.id.toLowerCase().includes(wanted) || (m.name ?? "").toLowerCase().includes(wanted),
    );
    if (match) return match;
  }
  return undefined;
}

/** Models with credentials, for hint matching; a registry that cannot list them leaves only the current model. */
function available(registry: ExtensionContext["modelRegistry"]): AnyModel[] {
  try {
    return registry.getAvailable();
  } catch {
    return [];
  }
}

function textOf(content: { type: string }): string {
  return content.type === "text" ? String((content as { text?: unknown }).text ?? "") : "";
}

function toPiMessage(role: "user" | "assistant", text: string, model: AnyModel): Message {
  const timestamp = Date.now();
  if (role === "user") return { role: "user", content: text, timestamp };
  // Earlier assistant turns of the server's conversation, shaped as Pi's own messages.
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp,
  };
}

const STOP_REASONS: Record<string, string> = { stop: "endTurn", length: "maxTokens", toolUse: "toolUse" };

function toResponse(answer: AssistantMessage, model: AnyModel): SamplingResponse {
  if (answer.stopReason === "aborted") throw new Error("the model request was cancelled");
  if (answer.stopReason === "error") {
    throw new Error(`the model request failed: ${answer.errorMessage ?? "unknown error"}`);
  }
  const text = answer.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("");
  return {
    role: "assistant",
    content: { type: "text", text },
    model: `${model.provider}/${answer.model || model.id}`,
    stopReason: STOP_REASONS[answer.stopReason] ?? answer.stopReason,
    usage: { inputTokens: answer.usage?.input ?? 0, outputTokens: answer.usage?.output ?? 0 },
  };
}
