/**
 * The one answer to "is this the same server?": a definition's content as
 * canonical JSON, without where it was configured or whether it is on.
 * Transport reconnects when it changes; config hashes it for approvals and
 * the metadata cache, so its bytes must never change for the same content.
 */
import type { ServerDefinition } from "./server-definition.js";

/**
 * Members that say where a definition came from (`source`, and config's
 * `layers` and `scope`), whether it is on (`disabled`) or what it is for
 * (config's `description`, a note for the model), not what it runs.
 */
const NOT_CONTENT = new Set(["source", "layers", "scope", "disabled", "description"]);

/**
 * JSON with object keys sorted (by UTF-16 code units) and `undefined`
 * members left out. Tool pins hash every listed tool's schema through it,
 * so it is written as plain loops: no array of entries per object.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length > 1 ? "," : ""}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * What a server runs or connects to: every member of the definition (richer
 * types' own members included) but provenance and `disabled`.
 */
export function definitionContent(definition: ServerDefinition): Record<string, unknown> {
  return Object.fromEntries(Object.entries(definition).filter(([key]) => !NOT_CONTENT.has(key)));
}

/** `canonicalJson` of `definitionContent`: equal keys, same server. */
export function definitionKey(definition: ServerDefinition): string {
  return canonicalJson(definitionContent(definition));
}
