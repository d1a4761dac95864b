/**
 * Stable SHA-256 hashes of server definitions, over core's `definitionKey`
 * content. `!command` and `${VAR}` values are hashed as written, never
 * resolved. The bytes hashed must never change (approvals and the metadata
 * cache on disk are keyed by them; test/trust/definition-hash-pinned.test.ts).
 */
import { createHash } from "node:crypto";
import { canonicalJson, definitionContent, definitionKey, type ServerDefinition } from "@pi-mcp-adapter/core";

/** Hash of what one server runs or connects to; a project-server approval is keyed by it. */
export function definitionHash(server: ServerDefinition): string {
  return sha256(definitionKey(server));
}

/**
 * Hash of the effective definitions (order-independent), for the metadata
 * cache: any change that could change a server's tools changes it.
 */
export function configHash(servers: readonly ServerDefinition[]): string {
  const sorted = [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sha256(
    canonicalJson(sorted.map((s) => ({ ...definitionContent(s), disabled: s.disabled === true }))),
  );
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
