/**
 * Tool pinning's record of one tool: a SHA-256 fingerprint over what the
 * model and the user trust about it — name, description, input schema and
 * annotations — plus the little needed to say later what changed (the
 * description, the parameter names, a hash of the schema, the annotations).
 * Servers are told apart by an identity over what they run or connect to,
 * so the same name in two projects does not mix their pins. No secrets:
 * tool listings and command lines only, and headers or env never.
 */
import { createHash } from "node:crypto";
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

/** The fingerprint of a tool as listed. */
export function toolFingerprint(tool: RemoteTool): string {
  return sha256(
    canonicalJson({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema ?? {},
      annotations: tool.annotations ?? {},
    }),
  );
}

/** The pin of a tool as listed now. */
export function pinTool(tool: RemoteTool): ToolPin {
  return {
    fingerprint: toolFingerprint(tool),
    description: tool.description ?? "",
    params: paramNames(tool.inputSchema),
    schema: sha256(canonicalJson(tool.inputSchema ?? {})),
    ...(tool.annotations && Object.keys(tool.annotations).length
      ? { annotations: { ...tool.annotations } }
      : {}),
  };
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

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
