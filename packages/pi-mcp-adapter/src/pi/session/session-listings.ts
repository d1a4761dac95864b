/**
 * What the session lists beside the startup snapshot: deferred servers in
 * the session's runtime, the servers other extensions registered that ask
 * for direct tools, and the names of the tools Pi already knows.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { isRegisteredSource } from "@pi-mcp-adapter/config";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";

/** Lists the deferred servers `names` in the session's runtime; one that fails to list is left out. */
export function listDeferred(runtime: Promise<AdapterRuntime>, names: readonly string[]): Promise<unknown> {
  return runtime.then(
    (r) => Promise.all(names.map((name) => r.catalog.view(name).catch(() => undefined))),
    () => undefined,
  );
}

/** Lists the registered servers (other extensions') that ask for direct tools; failures show in status. */
export function listRegisteredDirect(runtime: Promise<AdapterRuntime>): Promise<void> {
  return runtime.then(
    async (r) => {
      const direct = r.listings.summaries().filter((s) => {
        const definition = r.servers.definition(s.name);
        if (!definition || definition.disabled || !isRegisteredSource(definition.source.file)) return false;
        return definition.directTools !== undefined && definition.directTools !== false;
      });
      await Promise.all(direct.map((s) => r.catalog.view(s.name).catch(() => undefined)));
    },
    () => undefined,
  );
}

/** Tools Pi knows now (empty while extensions still load, when Pi cannot list them yet). */
export function otherToolNames(pi: ExtensionAPI): string[] {
  try {
    return pi.getAllTools().map((tool) => tool.name);
  } catch {
    return [];
  }
}
