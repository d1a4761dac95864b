/**
 * The `ProtocolClient` method table, written once for both SDKs. Their
 * clients share the method names and shapes of every request; an
 * `SdkSpecifics` supplies only what truly differs (reading the protocol
 * revision, `callTool`'s arguments, closing, error classes). A new protocol
 * method is added here, in one place.
 */

import type { CompletionResult } from "../remote-types.js";
import { ListingHints } from "./cache-hints.js";
import type { CompleteParams, Page, ProtocolClient, RequestOptions } from "./protocol-client.js";

type PageParams = { cursor: string } | undefined;

/** What both SDK clients offer alike (`Client` of SDK v1 and v2 each fit it). */
export interface SdkClient {
  getServerVersion(): { name: string; version: string; title?: unknown; description?: unknown } | undefined;
  getInstructions(): string | undefined;
  getServerCapabilities(): object | undefined;
  ping(o: RequestOptions): Promise<unknown>;
  listTools(params: PageParams, o: RequestOptions): Promise<Page & { tools: unknown[] }>;
  listResources(params: PageParams, o: RequestOptions): Promise<Page & { resources: unknown[] }>;
  listResourceTemplates(
    params: PageParams,
    o: RequestOptions,
  ): Promise<Page & { resourceTemplates: unknown[] }>;
  listPrompts(params: PageParams, o: RequestOptions): Promise<Page & { prompts: unknown[] }>;
  readResource(params: { uri: string }, o: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }, o: RequestOptions): Promise<unknown>;
  complete(params: CompleteParams, o: RequestOptions): Promise<{ completion: CompletionResult }>;
  subscribeResource(params: { uri: string }, o: RequestOptions): Promise<unknown>;
  sendRootsListChanged(): Promise<void>;
  onclose?: () => void;
  close(): Promise<void>;
}

/** `tools/call` params as both SDKs take them. */
export interface CallToolParams {
  name: string;
  arguments: Record<string, unknown>;
  _meta?: { progressToken: string };
}

/** What differs between the SDKs behind one table. */
export interface SdkSpecifics {
  protocolVersion(): string | undefined;
  /** v1 takes a result schema between params and options; v2 does not. */
  callTool(params: CallToolParams, o: RequestOptions): Promise<unknown>;
  /** Any request with a result schema that accepts everything (v1 wants zod, v2 a Standard Schema). */
  request(request: { method: string; params?: Record<string, unknown> }, o: RequestOptions): Promise<unknown>;
  /** Replaces the client's own `close` (v2 ends its listen stream first). */
  close?: () => Promise<void>;
  /** How this SDK's errors map onto ours. */
  classify(error: unknown): "timeout" | "closed" | undefined;
}

const pageParams = (cursor: string | undefined): PageParams => (cursor ? { cursor } : undefined);
const withCursor = (method: string, cursor: string | undefined) =>
  cursor ? { method, params: { cursor } } : { method, params: {} };

/** A `skills/list` page: its entries stay unchecked here, the host checks each one on its own. */
function skillsPage(result: unknown): Page & { skills: unknown[] } {
  const page = (result ?? {}) as { skills?: unknown; nextCursor?: unknown };
  if (!Array.isArray(page.skills)) throw new TypeError("skills/list returned no skills array");
  return typeof page.nextCursor === "string" && page.nextCursor !== ""
    ? { skills: page.skills, nextCursor: page.nextCursor }
    : { skills: page.skills };
}

function skillResult(result: unknown): { skill: unknown } {
  const skill = (result as { skill?: unknown } | undefined)?.skill;
  if (skill === undefined) throw new TypeError("skills/get returned no skill");
  return { skill };
}

export function protocolClientTable(client: SdkClient, sdk: SdkSpecifics): ProtocolClient {
  const hints = new ListingHints();
  return {
    protocolVersion: () => sdk.protocolVersion(),
    serverVersion: () => {
      const info = client.getServerVersion();
      if (!info) return undefined;
      const { title, description } = info;
      return {
        name: info.name,
        version: info.version,
        ...(typeof title === "string" ? { title } : {}),
        ...(typeof description === "string" ? { description } : {}),
      };
    },
    instructions: () => client.getInstructions(),
    serverCapabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    ping: (o) => client.ping(o),
    listTools: async (cursor, o) =>
      hints.noted("tools/list", cursor, await client.listTools(pageParams(cursor), o)),
    listResources: async (cursor, o) =>
      hints.noted("resources/list", cursor, await client.listResources(pageParams(cursor), o)),
    listResourceTemplates: async (cursor, o) =>
      hints.noted(
        "resources/templates/list",
        cursor,
        await client.listResourceTemplates(pageParams(cursor), o),
      ),
    listPrompts: async (cursor, o) =>
      hints.noted("prompts/list", cursor, await client.listPrompts(pageParams(cursor), o)),
    cacheHints: () => hints.combined(),
    readResource: (uri, o) => client.readResource({ uri }, o),
    getPrompt: (name, args, o) => client.getPrompt({ name, arguments: args }, o),
    callTool: (name, args, o, progressToken) =>
      sdk.callTool({ name, arguments: args, ...progressMeta(progressToken) }, o),
    complete: (params, o) => client.complete(params, o),
    subscribeResource: (uri, o) => client.subscribeResource({ uri }, o),
    listSkills: async (cursor, o) => skillsPage(await sdk.request(withCursor("skills/list", cursor), o)),
    getSkill: async (uri, o) => skillResult(await sdk.request({ method: "skills/get", params: { uri } }, o)),
    request: (method, params, o) => sdk.request(params ? { method, params } : { method }, o),
    notifyRootsChanged: () => client.sendRootsListChanged(),
    onClose: (handler) => {
      client.onclose = handler;
    },
    close: sdk.close ?? (() => client.close()),
    classify: (error) => sdk.classify(error),
  };
}

/**
 * `_meta` carrying our own progress token. We read progress off the transport
 * rather than through the SDK's `onprogress`: v1 dispatches notifications a
 * microtask late, after a response in the same read has dropped the handler.
 */
const progressMeta = (token: string | undefined) => (token ? { _meta: { progressToken: token } } : {});
