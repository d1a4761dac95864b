/**
 * What a call addresses, by kind, and the invoke stage: one switch from a
 * target to the server request that serves it, each answer brought into
 * the MCP tool-result shape (`ToolCallResult`) the output guard reads.
 */
import type { ApprovalOrigin, ApprovalTool } from "@pi-mcp-adapter/approval";
import {
  type ContentBlock,
  prefixedToolName,
  type ToolCallResult,
  type ToolMetadata,
} from "@pi-mcp-adapter/core";
import type {
  CallOptions,
  PromptResult,
  ResourceContents,
  ServerConnection,
} from "@pi-mcp-adapter/transport";
import { RuntimeError } from "../errors.js";
import type { CallKind, CallOrigin } from "../observability/call-observers.js";
import type { RunningTasks } from "../observability/running-tasks.js";
import { type SkillTarget, skillCall } from "./skill-calls.js";
import { callFollowingTask, followOn } from "./task-calls.js";

import { expandUriTemplate } from "./uri-template.js";

export type CallTarget =
  /** A catalog entry: a tool, or a resource / prompt the catalog lists as one. */
  | { kind: "tool"; tool: ToolMetadata }
  | { kind: "resource"; server: string; uri: string }
  /** `args` fill the template's `{var}`s (see `expandUriTemplate`). */
  | { kind: "resource-template"; server: string; uriTemplate: string }
  /** `args` are the prompt's arguments (stringified). */
  | { kind: "prompt"; server: string; name: string }
  /** An MCP skill (SEP-2640): loading it, or reading one of its files; always approved by the user. */
  | SkillTarget;

/** The kind a target runs as: a catalog entry of kind `resource` or `prompt` reads or gets. */
export function kindOf(target: CallTarget): CallKind {
  if (target.kind !== "tool") return target.kind;
  return target.tool.kind === "tool" ? "tool" : target.tool.kind;
}

export function serverOf(target: CallTarget): string {
  return target.kind === "tool" ? target.tool.server : target.server;
}

/** Resources and prompts reach approval brokers as their own origins; tools keep the caller's. */
export function approvalOrigin(kind: CallKind, origin: CallOrigin): ApprovalOrigin {
  if (kind === "resource" || kind === "resource-template") return "resource";
  if (kind === "prompt") return "prompt";
  if (kind === "skill") return origin === "command" ? "command" : "skill";
  return origin;
}

/**
 * What approval sees of a target. Resources and prompts are read-only by
 * protocol (a `"destructive"` or `"writes"` policy lets them through);
 * `approveTools` globs match a resource's URI (expanded for templates) —
 * also when it is called by its catalog name — or a prompt's name.
 */
export function approvalTool(target: CallTarget, name: string): ApprovalTool {
  switch (target.kind) {
    case "tool": {
      const tool = target.tool;
      if (tool.kind !== "resource") return tool;
      // A resource listed as a catalog entry: globs match the URI it reads, too.
      return {
        name: tool.name,
        prefixedName: tool.prefixedName,
        uri: name,
        annotations: { readOnlyHint: true },
      };
    }
    case "prompt":
      return {
        name: target.name,
        prefixedName: prefixedToolName(target.server, target.name),
        annotations: { readOnlyHint: true },
      };
    case "skill":
      // One grant per skill: the whole skill is approved, bound to its files' digests (the scope's fingerprint).
      return {
        name: target.entry.uri,
        prefixedName: `skill ${target.name}`,
        uri: name,
        annotations: { readOnlyHint: true },
      };
    default:
      return { name, prefixedName: name, uri: name, annotations: { readOnlyHint: true } };
  }
}

/** The name a call goes by: tool or prompt name, or the URI it reads (templates expanded). */
export function callName(target: CallTarget, args: Record<string, unknown>): string {
  switch (target.kind) {
    case "tool":
      if (target.tool.kind !== "resource") return target.tool.name;
      if (target.tool.uriTemplate) return expandUriTemplate(target.tool.uriTemplate, args);
      return target.tool.uri ?? target.tool.name;
    case "resource":
      return target.uri;
    case "resource-template":
      return expandUriTemplate(target.uriTemplate, args);
    case "prompt":
      return target.name;
    case "skill":
      return target.file === undefined ? target.entry.uri : `${target.entry.uri} ${target.file}`;
  }
}

/**
 * The invoke stage: sends the request for `target` and returns its answer as
 * a tool result. Not async itself: a tool call's promise is handed back as
 * is (an async layer costs turns of the microtask queue on every call).
 */
export function invokeTarget(
  connection: ServerConnection,
  target: CallTarget,
  name: string,
  args: Record<string, unknown>,
  options: Pick<CallOptions, "signal" | "onProgress"> & {
    callId?: string;
    /** The server's next connection once this one is replaced; undefined when the session is ending. */
    nextConnection?: (server: string) => Promise<ServerConnection> | undefined;
  },
  tasks?: RunningTasks,
): Promise<ToolCallResult> {
  const { signal } = options;
  switch (kindOf(target)) {
    case "tool": {
      const tool = (target as Extract<CallTarget, { kind: "tool" }>).tool;
      // The schema (and taskSupport) from the (possibly cached) metadata: a connection that never listed tools still knows.
      const durable = outlivesSession(connection);
      const origin = { callId: options.callId, durable };
      const next = durable ? options.nextConnection : undefined;
      return callFollowingTask(
        tasks,
        tool,
        origin,
        (task) =>
          connection.callTool(tool.name, args, {
            signal,
            outputSchema: tool.outputSchema,
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...task,
          }),
        next && followOn(next, tool, { signal, outputSchema: tool.outputSchema }),
      );
    }
    case "resource":
    case "resource-template":
      return readCall(connection, name, signal);
    case "prompt":
      return promptCall(connection, name, args, signal);
    case "skill":
      return skillCall(connection, target as SkillTarget, signal);
  }
}

async function readCall(connection: ServerConnection, name: string, signal?: AbortSignal) {
  return resourceResult(await connection.readResource(name, { signal }));
}

async function promptCall(
  connection: ServerConnection,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
) {
  return promptResult(await connection.getPrompt(name, promptArgs(name, args), { signal }));
}

/** Each content of a read as an embedded `resource` block. */
function resourceResult(read: ResourceContents): ToolCallResult {
  return { content: read.contents.map((resource) => ({ type: "resource", resource })) };
}

/**
 * Each message as content. When the prompt holds several messages, a
 * `[user]` / `[assistant]` marker goes before each so the model can tell who
 * speaks; a single message is its content alone. Non-text content (images,
 * embedded resources) stays a block of its own for the output guard.
 */
function promptResult(prompt: PromptResult): ToolCallResult {
  const content: ContentBlock[] = [];
  const marked = prompt.messages.length > 1;
  for (const message of prompt.messages) {
    const block = message.content as { type: string; text?: unknown };
    const marker = marked ? `[${message.role}]` : "";
    if (block.type === "text" && typeof block.text === "string") {
      content.push({ type: "text", text: marker ? `${marker}\n${block.text}` : block.text });
    } else {
      if (marker) content.push({ type: "text", text: marker });
      content.push(message.content);
    }
  }
  return { content };
}

/** Prompt arguments are strings on the wire; numbers and booleans are written out. */
function promptArgs(name: string, args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new RuntimeError(
        "invalid_args",
        `Prompt ${name}: args.${key} must be a string, number or boolean`,
      );
    }
    out[key] = String(value);
  }
  return out;
}

/**
 * Whether a server's tasks can outlive this process: a remote server, or a
 * shared one (the daemon keeps its process). A session's own stdio child
 * (or an in-process transport) ends with the session.
 */
function outlivesSession(connection: ServerConnection): boolean {
  return connection.via === "streamable-http" || connection.via === "sse" || connection.via === "socket";
}
