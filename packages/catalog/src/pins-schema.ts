/**
 * The on-disk shape of tool pins inside `mcp-cache.json` (`pins`, keyed by
 * server name), as a zod schema and as the hand-written check the cache
 * file's reader uses (see `cache-file-check.ts` for why it is hand-written).
 */
import { z } from "zod";

export const ToolPinSchema = z.object({
  fingerprint: z.string(),
  description: z.string(),
  params: z.array(z.string()),
  schema: z.string(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  unreviewed: z.boolean().optional(),
});

export const ServerPinsSchema = z.object({
  identity: z.string(),
  tools: z.record(z.string(), ToolPinSchema),
});

export const PinsSchema = z.record(z.string(), ServerPinsSchema);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  // Indexed, not `every`: a hole counts as `undefined`, as zod sees it.
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== "string") return false;
  return true;
}

function isToolPin(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.fingerprint === "string" &&
    typeof value.description === "string" &&
    isStringArray(value.params) &&
    typeof value.schema === "string" &&
    (value.annotations === undefined || isObject(value.annotations)) &&
    (value.unreviewed === undefined || typeof value.unreviewed === "boolean")
  );
}

/** True when `value` has the shape `PinsSchema` accepts (absent counts: pins are optional). */
export function isPins(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  return Object.values(value).every(
    (server) =>
      isObject(server) &&
      typeof server.identity === "string" &&
      isObject(server.tools) &&
      Object.values(server.tools).every(isToolPin),
  );
}
