/**
 * The on-disk shape of tool pins inside `mcp-cache.json` (`pins`, keyed by
 * server name), as a zod schema; the hand-written check the cache file's
 * reader uses is `pins-check.ts` (see `cache-file-check.ts` for why).
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
