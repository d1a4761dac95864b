/**
 * The client key of a shared server: what the server may learn of its client
 * and could behave differently by — the declared capabilities (elicitation
 * modes, sampling, roots) and the roots list. Sessions whose keys differ never
 * share a process. It is a hash: roots are paths the daemon need not keep.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "@pi-mcp-adapter/core";
import { type ClientHandlers, clientCapabilities } from "./client-handlers.js";

/** The key for `handlers` (asks the roots handler once, as a server's `roots/list` would). */
export async function sharedClientKey(server: string, handlers: ClientHandlers | undefined): Promise<string> {
  const capabilities = clientCapabilities(handlers);
  let roots: string[] = [];
  if (handlers?.roots) {
    const ended = new AbortController();
    ended.abort();
    const listed = await handlers.roots({
      server,
      signal: new AbortController().signal,
      callEnded: ended.signal,
      holdTimeouts: () => () => {},
      onNotification: () => () => {},
    });
    roots = listed.map((root) => root.uri).sort();
  }
  return createHash("sha256").update(canonicalJson({ capabilities, roots })).digest("hex").slice(0, 32);
}
