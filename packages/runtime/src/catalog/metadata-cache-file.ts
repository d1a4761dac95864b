/**
 * Where the runtime keeps tool metadata between sessions: `mcp-cache.json` in
 * Pi's agent directory (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), shared
 * with every other Pi process of the user.
 */
import path from "node:path";
import { CACHE_FILE_NAME, MetadataCache } from "@pi-mcp-adapter/catalog";

/**
 * The cache for a runtime: `file` when given, `undefined` (no disk cache) for
 * `false`, else `mcp-cache.json` in the agent directory the host handed in.
 */
export function openMetadataCache(
  file: string | false | undefined,
  agentDir: string,
): MetadataCache | undefined {
  if (file === false) return undefined;
  return new MetadataCache({ file: file ?? path.join(agentDir, CACHE_FILE_NAME) });
}
