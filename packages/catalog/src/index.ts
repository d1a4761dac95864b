/**
 * `@pi-mcp-adapter/catalog`: tool metadata, the metadata cache, pins and
 * skills. Nothing here loads zod (a host reads the cache on its start path);
 * the schemas and the checks of a listing as a server sends it are `./schemas`.
 */
export {
  type BuildToolMetadataOptions,
  buildServerMetadata,
  type PromptListing,
  type ResourceListing,
  type ResourceTemplateListing,
  type ServerListing,
} from "./build-tool-metadata.js";
export { CACHE_FILE_NAME, FAILED_LIST_RETRY_MS } from "./cache-file-constants.js";
export type { SkippedList } from "./cache-file-schema.js";
export { listingTextHash } from "./cache-file-text.js";
export { CatalogError, type CatalogErrorCode } from "./errors.js";
export {
  checkListingLimits,
  listingLimitProblem,
  MAX_LISTING_BYTES,
  MAX_LISTING_ENTRIES,
} from "./listing-limits.js";
export { type CacheFileSystem, MetadataCache, type MetadataCacheOptions } from "./metadata-cache.js";
export { resourceNameToToolName } from "./resource-name.js";
export {
  INSTRUCTIONS_HEAD_CHARS,
  INSTRUCTIONS_PREVIEW_CHARS,
  instructionsHead,
  instructionsPreview,
} from "./server-instructions.js";
export {
  type RefusedSkillEntry,
  refusedSkillNote,
  SKILL_LIMITS,
  skillFilesFingerprint,
  skillRoot,
} from "./skills/skill-entry.js";
export type { SkillEntry, SkillFileEntry } from "./skills/skill-entry-check.js";
export {
  type LoadedSkill,
  loadSkill,
  readSkillFile,
  resolveSkillRef,
  type SkillSource,
} from "./skills/skill-loader.js";
export { type NamedSkill, nameSkills } from "./skills/skill-names.js";
export {
  type SkillReadResult,
  SkillVerificationError,
  type SkillVerificationReason,
  type VerifiedSkillFile,
  verifySkillFile,
} from "./skills/skill-verify.js";
export {
  acceptToolChanges,
  compareToolPins,
  type PinComparison,
  type TextDiff,
  type ToolChange,
} from "./tool-changes.js";
export type { ToolFilter } from "./tool-filter.js";
export {
  hashToolsAhead,
  type ServerPins,
  serverIdentity,
  type ToolPin,
  toolFingerprint,
} from "./tool-fingerprint.js";
