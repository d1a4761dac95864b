/**
 * The output guard of one session: turns an MCP tool result into bounded
 * host content. Text is sanitized and capped (the rest spilled to a private
 * file), binary items become private files bounded per session, `details`
 * carries the raw result only when it is small, and JSON text may be
 * TOON-encoded. `dispose()` at session end removes the session's binary
 * files; spill files stay, for a resumed session and for the user. Creating
 * a guard starts removing old files earlier sessions left (`stale-files.ts`).
 */
import type {
  ContentBlock,
  OutputGuardSetting,
  ToolCallResult,
  ToonEncodeSetting,
} from "@pi-mcp-adapter/core";
import { type BlobStore, type BlobStoreOptions, createBlobStore, formatBytes } from "./blob-store.js";
import { boundDetails, type ResultDetails } from "./bound-details.js";
import { boundText, type SpillInfo } from "./bound-text.js";
import { type ResolvedOutputGuard, resolveOutputGuard, spillMaxAgeMs } from "./guard-settings.js";
import { smallTextResult } from "./small-text-result.js";
import { createFileSpillWriter, type SpillWriter } from "./spill-writer.js";
import { removeStaleGuardFiles } from "./stale-files.js";
import {
  describeResource,
  emptyResultText,
  type HostContent,
  resourceLinkText,
  resourceTextBlock,
  toHostContent,
} from "./to-host-content.js";
import { isToonEnabled, maybeEncodeToon } from "./toon.js";

export interface OutputGuardOptions {
  /** The `outputGuard` setting: `false` turns the guard off, an object tunes its limits. */
  setting?: OutputGuardSetting;
  /** Read for `MCP_OUTPUT_GUARD=0`; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** The `toonEncode` setting: `true` or a list of server names. */
  toonEncode?: ToonEncodeSetting;
  /** Where spill files go; default: a private directory under the system temp dir. */
  spill?: SpillWriter;
  /** The session's binary files; default: a new store with the default bounds. */
  blobs?: BlobStore;
  /** Options for the default blob store. */
  blobLimits?: BlobStoreOptions;
  /** Where the default spill and binary-file directories are made (and old ones looked for); default: the system temp dir. */
  root?: string;
  /**
   * The `spillMaxAgeDays` setting: spill files older than this many days are removed
   * when a guard is created. Default 7. A value that is not a number above 0 throws.
   */
  spillMaxAgeDays?: number;
  /**
   * Removing old files earlier sessions left under `root` (see `removeStaleGuardFiles`),
   * started with the guard off the critical path; `false` skips it. Default `true`.
   */
  staleFiles?: boolean;
}

export interface GuardContext {
  server: string;
  tool: string;
  /** Also bound the raw result for `details` (proxy calls); default false. */
  details?: boolean;
}

export interface GuardedResult {
  content: HostContent[];
  isError: boolean;
  /** The server's structured result, untouched, for callers that want it. */
  structuredContent?: Record<string, unknown>;
  /** Only when `details` was asked for. */
  details?: ResultDetails;
  /** Set when text was cut. */
  spill?: SpillInfo;
}

export interface OutputGuard {
  readonly settings: ResolvedOutputGuard;
  /** Never throws for any content a server sends; file errors become messages in the text. */
  guard(result: ToolCallResult, context: GuardContext): Promise<GuardedResult>;
  /** Settles when the removal of stale files from earlier sessions, started with the guard, is done. */
  readonly staleSweep: Promise<void>;
  /** Removes this session's binary files. Spill files stay (see `spillMaxAgeDays`). */
  dispose(): Promise<void>;
}

type Part = { kind: "text"; text: string; toon: boolean } | { kind: "image"; block: HostContent };

export function createOutputGuard(options: OutputGuardOptions = {}): OutputGuard {
  const settings = resolveOutputGuard(options.setting, options.env);
  const spill = options.spill ?? createFileSpillWriter({ root: options.root });
  const blobs = options.blobs ?? createBlobStore({ root: options.root, ...options.blobLimits });
  const spillMaxAge = spillMaxAgeMs(options.spillMaxAgeDays);
  const staleSweep =
    options.staleFiles === false
      ? Promise.resolve()
      : new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => removeStaleGuardFiles({ root: options.root, spillMaxAgeMs: spillMaxAge }))
          .then(
            () => {},
            () => {},
          );

  async function guard(result: ToolCallResult, context: GuardContext): Promise<GuardedResult> {
    const isError = result.isError === true;
    const base = { isError, ...structured(result) };
    const nameHint = `${context.server}-${context.tool}`;
    if (!settings.enabled) {
      return {
        ...base,
        content: toHostContent(result).content,
        ...(context.details ? { details: { mcpResult: result } } : {}),
      };
    }
    const toon = !isError && isToonEnabled(options.toonEncode, context.server);
    const small = toon ? undefined : smallTextResult(result, settings);
    if (small) {
      const details = !context.details
        ? undefined
        : small.detailsFit
          ? { mcpResult: result }
          : await boundDetails(result, { maxBytes: settings.detailsMaxBytes, spill, nameHint });
      return {
        ...base,
        content: small.texts.map((text) => ({ type: "text", text })),
        ...(details ? { details } : {}),
      };
    }
    const parts = await toParts(result, blobs, nameHint);
    const texts = await Promise.all(
      parts
        .filter((p) => p.kind === "text")
        .map(async (p) => (toon && p.toon ? ((await maybeEncodeToon(p.text)) ?? p.text) : p.text)),
    );
    const bounded = await boundText(texts, {
      maxBytes: settings.maxBytes,
      maxLines: settings.maxLines,
      spill,
      nameHint,
    });
    const content: HostContent[] = [];
    let next = 0;
    for (const part of parts) {
      if (part.kind === "image") content.push(part.block);
      else {
        const text = bounded.texts[next++];
        if (text !== undefined) content.push({ type: "text", text });
      }
    }
    if (bounded.notice) content.push({ type: "text", text: bounded.notice });
    if (content.length === 0) content.push({ type: "text", text: "(empty result)" });
    const details = context.details
      ? await boundDetails(result, {
          maxBytes: settings.detailsMaxBytes,
          spill,
          nameHint,
          // The text file already holds a text-only result whole: no second copy as JSON.
          ...(bounded.spill?.path && !toon ? { textFile: bounded.spill.path } : {}),
        })
      : undefined;
    return {
      ...base,
      content,
      ...(details ? { details } : {}),
      ...(bounded.spill ? { spill: bounded.spill } : {}),
    };
  }

  async function dispose(): Promise<void> {
    await blobs.dispose();
  }

  return { settings, guard, staleSweep, dispose };
}

function structured(result: ToolCallResult): { structuredContent?: Record<string, unknown> } {
  return result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {};
}

async function toParts(result: ToolCallResult, blobs: BlobStore, nameHint: string): Promise<Part[]> {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length === 0) return [{ kind: "text", text: emptyResultText(result), toon: true }];
  const parts: Part[] = [];
  for (const block of blocks) parts.push(await toPart(block, blobs, nameHint));
  return parts;
}

async function toPart(block: ContentBlock, blobs: BlobStore, nameHint: string): Promise<Part> {
  const b = (block ?? {}) as Record<string, unknown>;
  const text = (value: string, toon = false): Part => ({ kind: "text", text: value, toon });
  switch (b.type) {
    case "text":
      return text(typeof b.text === "string" ? b.text : String(b.text ?? ""), true);
    case "image":
      return {
        kind: "image",
        block: { type: "image", data: String(b.data ?? ""), mimeType: String(b.mimeType ?? "") },
      };
    case "audio": {
      const mime = typeof b.mimeType === "string" ? b.mimeType : undefined;
      const label = `audio ${mime ?? ""}`.trim();
      if (typeof b.data !== "string" || b.data === "") return text(`[${label}: no data]`);
      return text(await saveBinary(blobs, b.data, label, nameHint, mime));
    }
    case "resource": {
      const resource = (b.resource && typeof b.resource === "object" ? b.resource : {}) as Record<
        string,
        unknown
      >;
      if (typeof resource.text === "string") return text(resourceTextBlock(resource, resource.text));
      if (typeof resource.blob !== "string")
        return text(`[resource ${describeResource(resource)}: no content]`);
      const mime = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      return text(
        await saveBinary(blobs, resource.blob, `resource ${describeResource(resource)}`, nameHint, mime),
      );
    }
    case "resource_link":
      return text(resourceLinkText(b));
    default:
      return text(`[unsupported content type "${String(b.type)}"]`);
  }
}

async function saveBinary(
  blobs: BlobStore,
  data: string,
  label: string,
  nameHint: string,
  mimeType: string | undefined,
): Promise<string> {
  try {
    const saved = await blobs.save(data, { nameHint, mimeType });
    return `[${label}: ${formatBytes(saved.bytes)} saved to ${saved.path}]`;
  } catch (error) {
    return `[${label}: ${error instanceof Error ? error.message : String(error)}]`;
  }
}
