/**
 * An inline config (SDK `createMcpAdapter({ config })`): a complete, isolated
 * snapshot. When there is one it is the only source besides registrations.
 */
import { parseConfigLayer } from "../layers/config-layer.js";
import { nothingRead, type SourceEnv, type SourceRead } from "./config-source.js";

/** The `file` named in provenance and problems of an inline config. */
export const INLINE_CONFIG = "<inline config>";

export async function readInlineConfig(env: SourceEnv): Promise<SourceRead> {
  const found = nothingRead();
  if (!env.inline) return found;
  let snapshot: unknown;
  try {
    snapshot = structuredClone(env.inline.config);
  } catch {
    found.problems.push({
      severity: "error",
      file: INLINE_CONFIG,
      message: "inline config must be plain JSON data",
    });
    return found;
  }
  found.layers.push(parseConfigLayer(snapshot, INLINE_CONFIG, "inline", await env.layers.check()));
  return found;
}
