/**
 * The on-disk shape of `mcp-cache.json` as schemas and types: per server, the
 * key (a SHA-256 hash of the server's effective definition) it was listed
 * under, when, and the raw listing; and, per server, the pinned fingerprints
 * of its tools. Definitions, credentials and search keywords are never
 * stored. Reading the file is `cache-file.ts` (hand-checked, no zod); these
 * schemas check a listing before it is written (loaded then, not at start-up).
 */
import { z } from "zod";
import { CACHE_VERSION } from "./cache-file-constants.js";
import { PinsSchema } from "./pins-schema.js";
import { SkillEntrySchema } from "./skills/skill-entry-check.js";

const SchemaLike = z.record(z.string(), z.unknown());

export const CachedToolSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: SchemaLike,
  outputSchema: SchemaLike.optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  /** Extension metadata (MCP Apps' `ui`), so an app's tool keeps its UI and visibility offline. */
  _meta: z.record(z.string(), z.unknown()).optional(),
  /** How the tool runs (`taskSupport`, MCP Tasks), so a cached tool still runs as a task where it must. */
  execution: z.record(z.string(), z.unknown()).optional(),
});

// `instructions`, `prompts` and `skipped` first: a parsed listing's JSON has its keys in the order the file has them.
/** What a cached resource and a resource template both carry besides their URI (template). */
const RESOURCE_FIELDS = {
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
};

/**
 * An optional list (resources, resource templates, prompts) a server
 * declared that did not come: `unsupported` when the server answered
 * -32601 (method not found) — it has none, and that is cached as such;
 * `failed` for any other failure, listed again after `FAILED_LIST_RETRY_MS`.
 */
export const SkippedListSchema = z.object({
  list: z.enum(["resources/list", "resources/templates/list", "prompts/list", "skills/list"]),
  reason: z.enum(["unsupported", "failed"]),
  /** What the server or the transport said. */
  error: z.string(),
});
export type SkippedList = z.infer<typeof SkippedListSchema>;

export const ServerListingSchema = z.object({
  instructions: z.string().optional(),
  /** What the server's `initialize` said of itself beyond its name (search reads it). */
  serverInfo: z.object({ title: z.string().optional(), description: z.string().optional() }).optional(),
  prompts: z
    .array(
      z.object({
        name: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
        arguments: z
          .array(
            z.object({
              name: z.string(),
              description: z.string().optional(),
              required: z.boolean().optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  skipped: z.array(SkippedListSchema).optional(),
  tools: z.array(CachedToolSchema),
  resources: z.array(z.object({ uri: z.string(), ...RESOURCE_FIELDS })).optional(),
  resourceTemplates: z.array(z.object({ uriTemplate: z.string(), ...RESOURCE_FIELDS })).optional(),
  /** Skill entries (SEP-2640), so a lazy server's skills are offered before it starts; `[]`: offers skills, lists none. */
  skills: z.array(SkillEntrySchema).optional(),
  /** Skills listing entries refused by the checks, and why: status shows them for a server not started yet. */
  refusedSkills: z
    .array(
      z.object({
        index: z.number().int().nonnegative(),
        uri: z.string().optional(),
        name: z.string().optional(),
        reason: z.string(),
      }),
    )
    .optional(),
});
export type CachedServerListing = z.infer<typeof ServerListingSchema>;

/**
 * The pin fingerprints of a listing's tools, in their order, and a SHA-256
 * of the listing's text in the file they were made for: a read-back whose
 * text still has that hash takes them instead of hashing every tool again.
 */
export const ListingFingerprintsSchema = z.object({
  listing: z.string(),
  tools: z.array(z.string()),
});
export type ListingFingerprints = z.infer<typeof ListingFingerprintsSchema>;

export const CacheEntrySchema = z.object({
  key: z.string(),
  savedAt: z.number(),
  fingerprints: ListingFingerprintsSchema.optional(),
  listing: ServerListingSchema,
});
export type CacheEntry = z.infer<typeof CacheEntrySchema>;

export const CacheFileSchema = z.object({
  version: z.literal(CACHE_VERSION),
  servers: z.record(z.string(), CacheEntrySchema),
  /** Tool pins per server name (`tool-fingerprint.ts`); they outlive the entries' TTL. */
  pins: PinsSchema.optional(),
});
export type CacheFile = z.infer<typeof CacheFileSchema>;
