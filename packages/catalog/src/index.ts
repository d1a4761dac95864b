export {
  type BuildToolMetadataOptions,
  buildServerMetadata,
  buildToolMetadata,
  type PromptListing,
  type ResourceListing,
  type ResourceTemplateListing,
  type ServerListing,
} from "./build-tool-metadata.js";
export { parseCacheFile } from "./cache-file.js";
export {
  CACHE_FILE_NAME,
  CACHE_TTL_MS,
  CACHE_VERSION,
  type CachedServerListing,
  type CacheEntry,
  CacheEntrySchema,
  type CacheFile,
  CacheFileSchema,
  FAILED_LIST_RETRY_MS,
  ServerListingSchema,
  type SkippedList,
  SkippedListSchema,
} from "./cache-file-schema.js";
export { CatalogError, type CatalogErrorCode } from "./errors.js";
export {
  checkListingLimits,
  type ListingLimits,
  listingLimitProblem,
  MAX_LISTING_BYTES,
  MAX_LISTING_ENTRIES,
} from "./listing-limits.js";
export { type CacheFileSystem, MetadataCache, type MetadataCacheOptions } from "./metadata-cache.js";
export { PinsSchema, ServerPinsSchema, ToolPinSchema } from "./pins-schema.js";
export { resourceNameToToolName } from "./resource-name.js";
export {
  INSTRUCTIONS_HEAD_CHARS,
  INSTRUCTIONS_PREVIEW_CHARS,
  instructionsHead,
  instructionsPreview,
} from "./server-instructions.js";
export {
  acceptToolChanges,
  compareToolPins,
  type PinComparison,
  type TextDiff,
  type ToolChange,
  textDiff,
} from "./tool-changes.js";
export { isToolIncluded, type ToolFilter } from "./tool-filter.js";
export {
  hashToolsAhead,
  pinTool,
  type ServerPins,
  serverIdentity,
  type ToolPin,
  toolFingerprint,
} from "./tool-fingerprint.js";
