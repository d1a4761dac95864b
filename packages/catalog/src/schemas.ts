/**
 * `@pi-mcp-adapter/catalog/schemas`: the cache file's zod schemas and the
 * checks of skill entries as a server sends them. Importing it loads zod; the
 * package root does not.
 */
export {
  CacheFileSchema,
  ServerListingSchema,
  type SkippedList,
  SkippedListSchema,
} from "./cache-file-schema.js";
export {
  checkSkillEntry,
  checkSkillListing,
  type SkillEntry,
  SkillEntrySchema,
  type SkillFileEntry,
  SkillFileEntrySchema,
} from "./skills/skill-entry-check.js";
