/**
 * Tool pinning's record of one tool: a SHA-256 fingerprint over what the
 * model and the user trust about it — name, description, input schema and
 * annotations — plus the little needed to say later what changed (the
 * description, the parameter names, a hash of the schema, the annotations).
 * Servers are told apart by an identity over what they run or connect to,
 * so the same name in two projects does not mix their pins. No secrets:
 * tool listings and command lines only, and headers or env never.
 */
import { hash } from "node:crypto";
import { canonicalJson, type RemoteTool, type ServerDefinition } from "@pi-mcp-adapter/core";

export interface ToolPin {
  /** SHA-256 over name, description, input schema and annotations. */
  fingerprint: string;
  description: string;
  /** Top-level input parameter names, sorted. */
  params: string[];
  /** SHA-256 of the input schema (it changes with a parameter's type, too). */
  schema: string;
  annotations?: Record<string, unknown>;
  /** Pinned when it first appeared on a server already pinned; reported as new until accepted. */
  unreviewed?: boolean;
}

/** A server's pinned tools, and the identity of the server they were pinned for. */
export interface ServerPins {
  identity: string;
  tools: Record<string, ToolPin>;
}

/** The hashes of a listed tool, kept per tool object (a listing is never changed in place; a new one brings new objects). */
interface ToolHashes {
  fingerprint: string;
  /** Hashed when first needed: only a pin needs it. */
  schema?: string;
}

const hashesByTool = new WeakMap<RemoteTool, ToolHashes>();

/** The fingerprint of a tool as listed (computed once per tool object). */
export function toolFingerprint(tool: RemoteTool): string {
  return hashesOf(tool, false).fingerprint;
}

/** The pin of a tool as listed now. */
export function pinTool(tool: RemoteTool): ToolPin {
  const { fingerprint, schema } = hashesOf(tool, true);
  return {
    fingerprint,
    description: tool.description ?? "",
    params: paramNames(tool.inputSchema),
    schema: schema!,
    ...(tool.annotations && Object.keys(tool.annotations).length
      ? { annotations: { ...tool.annotations } }
      : {}),
  };
}

/**
 * Hashes listed tools ahead of their comparison with the pins (in idle
 * time): their fingerprints, and with `forPins` (a server not pinned yet)
 * what pinning them needs too. Nothing else changes.
 */
export function hashToolsAhead(tools: readonly RemoteTool[], forPins: boolean): void {
  for (const tool of tools) hashesOf(tool, forPins);
}

/**
 * Takes fingerprints known for listed tools (in their order) instead of
 * hashing them: those kept with a cached listing whose text is as it was
 * when they were made (`cache-file-text.ts`). A tool hashed already keeps
 * its own.
 */
export function adoptFingerprints(tools: readonly RemoteTool[], fingerprints: readonly string[]): void {
  tools.forEach((tool, i) => {
    const fingerprint = fingerprints[i];
    if (fingerprint !== undefined && !hashesByTool.has(tool)) hashesByTool.set(tool, { fingerprint });
  });
}

function hashesOf(tool: RemoteTool, withSchema: boolean): ToolHashes {
  let hashes = hashesByTool.get(tool);
  if (hashes && (hashes.schema !== undefined || !withSchema)) return hashes;
  // The schema's canonical JSON is the costly part: made once for both hashes.
  const schemaJson = canonicalJson(tool.inputSchema ?? {});
  hashes = {
    fingerprint: hashes?.fingerprint ?? sha256(fingerprintJson(tool, schemaJson)),
    ...(withSchema ? { schema: sha256(schemaJson) } : {}),
  };
  hashesByTool.set(tool, hashes);
  return hashes;
}

/**
 * `canonicalJson({ name, description, inputSchema, annotations })` (the
 * fingerprinted text; its bytes must never change) with the schema's
 * canonical JSON given.
 */
function fingerprintJson(tool: RemoteTool, schemaJson: string): string {
  const annotations = canonicalJson(tool.annotations ?? {});
  // A nameless entry leaves `name` out, as canonicalJson leaves out undefined members.
  const name = tool.name === undefined ? "" : `,"name":${canonicalJson(tool.name)}`;
  return `{"annotations":${annotations},"description":${canonicalJson(tool.description ?? "")},"inputSchema":${schemaJson}${name}}`;
}

/**
 * Which server pins belong to: its name and what it runs or connects to
 * (transport, command, arguments, URL, socket). Filters, approval and
 * other settings are left out, so editing them keeps the pins.
 */
export function serverIdentity(definition: ServerDefinition): string {
  const { name, transport, command, args, url, socket } = definition;
  return sha256(canonicalJson({ name, transport, command, args, url, socket }));
}

function paramNames(schema: RemoteTool["inputSchema"] | undefined): string[] {
  const properties = schema?.properties;
  if (!properties || typeof properties !== "object" || Array.isArray(properties)) return [];
  return Object.keys(properties).sort();
}

/** One-shot hashing: a first search hashes a thousand tools, and a `Hash` object each cost about as much as the hashing. */
function sha256(text: string): string {
  return hash("sha256", text, "hex");
}
