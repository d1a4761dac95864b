/**
 * The client key of a shared server: what the server may learn of its client
 * and could behave differently by — the declared capabilities (elicitation
 * modes, sampling, roots), the roots list, and the protocol the session speaks
 * (`legacy`, `auto`, a pinned revision). Sessions whose keys differ never
 * share a process. It is a hash: roots are paths the daemon need not keep.
 */
import { createHash } from "node:crypto";
import { canonicalJson, type ServerDefinition } from "@pi-mcp-adapter/core";
import { type ClientHandlers, clientCapabilities } from "../inbound/client-handlers.js";

/** The key for `handlers` (asks the roots handler once, as a server's `roots/list` would). */
export async function sharedClientKey(
  definition: ServerDefinition,
  handlers: ClientHandlers | undefined,
): Promise<string> {
  const capabilities = clientCapabilities(handlers);
  let roots: string[] = [];
  if (handlers?.roots) {
    const ended = new AbortController();
    ended.abort();
    const listed = await handlers.roots({
      server: definition.name,
      signal: new AbortController().signal,
      callEnded: ended.signal,
      holdTimeouts: () => () => {},
      onNotification: () => () => {},
    });
    roots = listed.map((root) => root.uri).sort();
  }
  const protocol = definition.protocol ?? "legacy";
  return createHash("sha256")
    .update(canonicalJson({ capabilities, roots, protocol }))
    .digest("hex")
    .slice(0, 32);
}
