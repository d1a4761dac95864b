/**
 * What changed in a server's tools since they were pinned, and the pins
 * after accepting changes. The first listing of a server pins every tool
 * silently (trust on first use); after that a tool whose fingerprint moved
 * is `changed` (with a short diff), and a tool never seen before is pinned
 * at once but reported as `new` until accepted, so a later change to it is
 * still caught. A tool that went away keeps its pin.
 */
import type { RemoteTool } from "@pi-mcp-adapter/core";
import { pinTool, type ServerPins, type ToolPin, toolFingerprint } from "./tool-fingerprint.js";

export interface ToolChange {
  tool: string;
  kind: "changed" | "new";
  /** The tool's fingerprint now. */
  fingerprint: string;
  /** A changed description: the changed part with a little context on each side. */
  description?: TextDiff;
  addedParams: string[];
  removedParams: string[];
  /** The input schema changed beyond added or removed parameters (a type, `required`, …). */
  schemaChanged: boolean;
  annotations: { key: string; before: unknown; after: unknown }[];
}

export interface PinComparison {
  changes: ToolChange[];
  /** Pins to save (a first listing, or new tools); undefined when the saved pins stand. */
  save?: ServerPins;
}

/** Compares a server's listed tools with its pins (see the module comment). */
export function compareToolPins(
  pins: ServerPins | undefined,
  identity: string,
  tools: readonly RemoteTool[],
): PinComparison {
  if (!pins || pins.identity !== identity) {
    return {
      changes: [],
      save: { identity, tools: Object.fromEntries(tools.map((t) => [t.name, pinTool(t)])) },
    };
  }
  const changes: ToolChange[] = [];
  let added: Record<string, ToolPin> | undefined;
  for (const tool of tools) {
    const pin = pins.tools[tool.name];
    if (!pin) {
      added ??= {};
      added[tool.name] = { ...pinTool(tool), unreviewed: true };
      changes.push(newTool(tool));
      continue;
    }
    const fingerprint = toolFingerprint(tool);
    if (pin.fingerprint !== fingerprint) changes.push(diffTool(pin, tool, fingerprint));
    else if (pin.unreviewed) changes.push(newTool(tool));
  }
  return added ? { changes, save: { identity, tools: { ...pins.tools, ...added } } } : { changes };
}

/** The pins after accepting the listed `tools` as they are now (all of them, or those named). */
export function acceptToolChanges(
  pins: ServerPins | undefined,
  identity: string,
  tools: readonly RemoteTool[],
  names?: readonly string[],
): ServerPins {
  const base = pins && pins.identity === identity ? { ...pins.tools } : {};
  for (const tool of tools) {
    if (!names || names.includes(tool.name)) base[tool.name] = pinTool(tool);
  }
  return { identity, tools: base };
}

function newTool(tool: RemoteTool): ToolChange {
  return {
    tool: tool.name,
    kind: "new",
    fingerprint: toolFingerprint(tool),
    addedParams: [],
    removedParams: [],
    schemaChanged: false,
    annotations: [],
  };
}

function diffTool(pin: ToolPin, tool: RemoteTool, fingerprint: string): ToolChange {
  const now = pinTool(tool);
  const addedParams = now.params.filter((p) => !pin.params.includes(p));
  const removedParams = pin.params.filter((p) => !now.params.includes(p));
  const keys = [...new Set([...Object.keys(pin.annotations ?? {}), ...Object.keys(now.annotations ?? {})])];
  const annotations = keys
    .map((key) => ({ key, before: pin.annotations?.[key], after: now.annotations?.[key] }))
    .filter((a) => JSON.stringify(a.before) !== JSON.stringify(a.after));
  return {
    tool: tool.name,
    kind: "changed",
    fingerprint,
    ...(pin.description !== now.description
      ? { description: textDiff(pin.description, now.description) }
      : {}),
    addedParams,
    removedParams,
    schemaChanged: pin.schema !== now.schema && addedParams.length === 0 && removedParams.length === 0,
    annotations,
  };
}

/** A changed text: what was cut and put in its place, with the unchanged text just around it. */
export interface TextDiff {
  removed: string;
  added: string;
  contextBefore: string;
  contextAfter: string;
}

const CONTEXT_CHARS = 24;
const CHANGE_CHARS = 160;

/** The part of `after` that differs from `before` (common start and end cut), with some context. */
export function textDiff(before: string, after: string): TextDiff {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const head = before.slice(Math.max(0, start - CONTEXT_CHARS), start);
  const tail = before.slice(before.length - end, before.length - end + CONTEXT_CHARS);
  return {
    removed: clip(before.slice(start, before.length - end)),
    added: clip(after.slice(start, after.length - end)),
    contextBefore: (start > CONTEXT_CHARS ? "…" : "") + head,
    contextAfter: tail + (end > CONTEXT_CHARS ? "…" : ""),
  };
}

function clip(text: string): string {
  return text.length > CHANGE_CHARS ? `${text.slice(0, CHANGE_CHARS)}…` : text;
}
