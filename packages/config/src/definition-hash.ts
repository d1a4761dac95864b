/**
 * Stable SHA-256 hashes of server definitions. `!command` and `${VAR}`
 * values are hashed as written, never resolved.
 */
import { createHash } from "node:crypto";
import type { ServerDefinition } from "@pi-mcp-adapter/core";

/** Fields that say where a definition came from or whether it is on, not what it runs. */
const NOT_HASHED = new Set(["source", "layers", "scope", "disabled"]);

/** Hash of what one server runs or connects to; a project-server approval is keyed by it. */
export function definitionHash(server: ServerDefinition): string {
  return sha256(canonicalJson(withoutProvenance(server)));
}

/**
 * Hash of the effective definitions (order-independent), for the metadata
 * cache: any change that could change a server's tools changes it.
 */
export function configHash(servers: readonly ServerDefinition[]): string {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sha256(
    canonicalJson(sorted.map((s) => ({ ...withoutProvenance(s), disabled: s.disabled === true }))),
  );
}

function withoutProvenance(server: ServerDefinition): Record<string, unknown> {
  return Object.fromEntries(Object.entries(server).filter(([key]) => !NOT_HASHED.has(key)));
}

/** JSON with object keys sorted and `undefined` members left out. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
