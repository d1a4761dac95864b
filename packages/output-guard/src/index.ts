// The settings' schemas live in core (shared with config); re-exported for hosts that import them from here.
export {
  type OutputGuardLimits,
  OutputGuardLimitsSchema,
  type OutputGuardSetting,
  OutputGuardSettingSchema,
  SpillMaxAgeDaysSchema,
  type ToonEncodeSetting,
  ToonEncodeSettingSchema,
} from "@pi-mcp-adapter/core";
export {
  BLOB_DIR_PREFIX,
  type BlobLimits,
  type BlobStore,
  type BlobStoreOptions,
  base64DecodedSize,
  createBlobStore,
  DEFAULT_BLOB_LIMITS,
  type SavedBlob,
} from "./blob-store.js";
export { boundDetails, type ResultDetails, type ResultSummary } from "./bound-details.js";
export { type BoundTextOptions, type BoundTextResult, boundText, type SpillInfo } from "./bound-text.js";
export { OutputGuardError, type OutputGuardErrorCode } from "./errors.js";
export {
  DEFAULT_DETAILS_MAX_BYTES,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  parseOutputGuardSetting,
  type ResolvedOutputGuard,
  resolveOutputGuard,
  spillMaxAgeMs,
} from "./guard-settings.js";
export { jsonChunks, jsonSizeWithin } from "./json-chunks.js";
export {
  createOutputGuard,
  type GuardContext,
  type GuardedResult,
  type OutputGuard,
  type OutputGuardOptions,
} from "./output-guard.js";
export {
  createFileSpillWriter,
  type FileSpillWriterOptions,
  SPILL_DIR_PREFIX,
  type SpillFile,
  type SpillWriter,
} from "./spill-writer.js";
export {
  DEFAULT_SPILL_MAX_AGE_DAYS,
  PARTIAL_FILE_GRACE_MS,
  removeStaleGuardFiles,
  STALE_BLOB_AGE_MS,
  type StaleFileOptions,
} from "./stale-files.js";
export { stripControlSequences, stripControlSequencesInChunks } from "./strip-control.js";
export { type HostContent, type HostResult, toHostContent } from "./to-host-content.js";
export {
  isToonEnabled,
  maybeEncodeToon,
  TOON_MAX_INPUT_CHARS,
} from "./toon.js";
