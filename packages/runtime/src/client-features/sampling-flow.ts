/**
 * Answers a server's `sampling/createMessage` with the host's model. Sampling
 * is text only: image or audio content, tool use and context inclusion are
 * refused with an Invalid-params error before anyone is asked. Every request
 * is approved first (Allow once / Allow for session / Deny) unless
 * `samplingAutoApprove` is set; a denial reaches the server as an error. The
 * server's cancellation aborts the model request (the handler's signal is
 * passed to the host). Token usage is counted per server.
 */
import type { ContentBlock, CreateMessageParams, CreateMessageResult } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import { RuntimeError } from "../errors.js";
import type { Host, SamplingRequest } from "../host.js";
import type { DialogQueue } from "./dialog-queue.js";
import type { SamplingUsage } from "./sampling-usage.js";

/** The choices of the sampling approval dialog. */
export const SAMPLING_CHOICES = ["Allow once", "Allow for session", "Deny"] as const;

/** JSON-RPC codes a refusal carries to the server: Invalid params, and the spec's "user rejected". */
export const INVALID_PARAMS = -32602;
export const USER_REJECTED = -1;

/** A sampling request the adapter will not run; `code` reaches the server as the JSON-RPC error code. */
export class SamplingRefusal extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = "SamplingRefusal";
  }
}

/** Bounds of what the approval dialog shows (the full request still goes to the model). */
const SHOWN_MESSAGES = 6;
const SHOWN_CHARS = 400;

export interface SamplingHandlerOptions {
  /** `samplingAutoApprove`: run without asking (required when the host has no UI). */
  autoApprove: boolean;
  /** Where token usage is counted. */
  usage?: SamplingUsage;
  /** Runs the approval dialog when no other flow is talking to the user (the model call itself is outside it). */
  queue?: DialogQueue;
}

type Sampler = (
  params: CreateMessageParams,
  context: { server: string; signal: AbortSignal },
) => Promise<CreateMessageResult>;

/** The sampling handler for `ClientHandlers`; `host.sample` must exist. */
export function samplingHandler(host: Host, options: SamplingHandlerOptions): Sampler {
  const sample = host.sample;
  if (!sample)
    throw new RuntimeError("not_supported", "samplingHandler needs a host with a model (Host.sample)");
  // "Allow for session": the servers the user trusted with the model until the runtime ends.
  const allowed = new Set<string>();
  return async (params, { server, signal }) => {
    const request = samplingRequestFrom(params);
    const approve = async () => {
      // Checked again once the queue is ours: an earlier dialog may have allowed the server for the session.
      if (allowed.has(server)) return;
      if (!host.hasUI) {
        throw new SamplingRefusal(
          "sampling needs the user's approval and this session has no UI",
          USER_REJECTED,
        );
      }
      const choice = await host.dialogs.select(approvalTitle(server, request), [...SAMPLING_CHOICES], {
        signal,
      });
      if (choice === "Allow for session") allowed.add(server);
      else if (choice !== "Allow once") {
        throw new SamplingRefusal("the user denied the sampling request", USER_REJECTED);
      }
    };
    if (!options.autoApprove && !allowed.has(server))
      await (options.queue ? options.queue(approve) : approve());
    const response = await sample(request, signal);
    const text = response.content.type === "text" ? String((response.content as { text: string }).text) : "";
    const stop = cutAtStopSequence(text, request.stopSequences);
    options.usage?.record(server, response.model, response.usage);
    return {
      role: "assistant",
      content: { type: "text", text: stop.text },
      model: response.model,
      ...(stop.cut
        ? { stopReason: "stopSequence" }
        : response.stopReason
          ? { stopReason: response.stopReason }
          : {}),
    };
  };
}

/** The neutral request for the host, or a `SamplingRefusal` naming what is not supported. */
export function samplingRequestFrom(params: CreateMessageParams): SamplingRequest {
  const extra = params as CreateMessageParams & { tools?: unknown[]; toolChoice?: unknown };
  if (params.includeContext && params.includeContext !== "none") {
    throw new SamplingRefusal(
      `includeContext "${params.includeContext}" is not supported: sampling here is text-only and shares no session context (use "none")`,
      INVALID_PARAMS,
    );
  }
  if ((Array.isArray(extra.tools) && extra.tools.length > 0) || extra.toolChoice !== undefined) {
    throw new SamplingRefusal(
      "tool use in sampling is not supported: sampling here is text-only",
      INVALID_PARAMS,
    );
  }
  if (!Array.isArray(params.messages) || params.messages.length === 0) {
    throw new SamplingRefusal("a sampling request needs at least one message", INVALID_PARAMS);
  }
  const messages = params.messages.map((message, i) => {
    const blocks: ContentBlock[] = Array.isArray(message.content) ? message.content : [message.content];
    const texts = blocks.map((block) => {
      if (block?.type !== "text") {
        throw new SamplingRefusal(
          `message ${i + 1} has ${String(block?.type)} content: sampling here is text-only (no images, audio or tool use)`,
          INVALID_PARAMS,
        );
      }
      return String((block as { text: unknown }).text ?? "");
    });
    return { role: message.role, content: { type: "text", text: texts.join("\n") } as ContentBlock };
  });
  return {
    messages,
    maxTokens: params.maxTokens,
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences?.length ? { stopSequences: params.stopSequences } : {}),
    ...(params.modelPreferences ? { modelPreferences: params.modelPreferences } : {}),
  };
}

/**
 * Pi's model API takes no stop sequences, so they are applied to the answer:
 * the text ends before the earliest one.
 */
export function cutAtStopSequence(text: string, stops: string[] | undefined): { text: string; cut: boolean } {
  let end = -1;
  for (const stop of stops ?? []) {
    if (!stop) continue;
    const at = text.indexOf(stop);
    if (at !== -1 && (end === -1 || at < end)) end = at;
  }
  return end === -1 ? { text, cut: false } : { text: text.slice(0, end), cut: true };
}

function approvalTitle(server: string, request: SamplingRequest): string {
  const lines = [`MCP server "${server}" asks to use your model (sampling). Allow?`];
  if (request.systemPrompt) lines.push(`System prompt: ${bound(request.systemPrompt)}`);
  for (const message of request.messages.slice(0, SHOWN_MESSAGES)) {
    lines.push(`[${message.role}] ${bound(String((message.content as { text?: unknown }).text ?? ""))}`);
  }
  const more = request.messages.length - SHOWN_MESSAGES;
  if (more > 0) lines.push(`… and ${more} more message${more === 1 ? "" : "s"}`);
  lines.push(`Max tokens: ${request.maxTokens}`);
  return lines.join("\n");
}

/** Server text for the dialog: no terminal control or bidi characters, and bounded. */
function bound(raw: string): string {
  const text = stripControlSequences(raw);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}… (${text.length} characters)` : text;
}
