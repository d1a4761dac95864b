/**
 * `@pi-mcp-adapter/output-guard`: bounds what a tool result puts in front of
 * the model. Nothing here loads zod (a guard is made on a host's start path);
 * the settings' schemas and `parseOutputGuardSetting` are `./schemas`.
 */
export type { OutputGuardSetting, ToonEncodeSetting } from "@pi-mcp-adapter/core";
export {
  type BlobLimits,
  type BlobStore,
  type BlobStoreOptions,
  createBlobStore,
  type SavedBlob,
} from "./blob-store.js";
export { boundDetails, type ResultDetails, type ResultSummary } from "./bound-details.js";
export { boundText, type SpillInfo } from "./bound-text.js";
export { OutputGuardError, type OutputGuardErrorCode } from "./errors.js";
export { type ResolvedOutputGuard, resolveOutputGuard, spillMaxAgeMs } from "./guard-settings.js";
export { jsonChunks } from "./json-chunks.js";
export {
  createOutputGuard,
  type GuardContext,
  type GuardedResult,
  type OutputGuard,
  type OutputGuardOptions,
} from "./output-guard.js";
export { createFileSpillWriter, type SpillFile, type SpillWriter } from "./spill-writer.js";
export {
  DEFAULT_SPILL_MAX_AGE_DAYS,
  removeStaleGuardFiles,
  STALE_BLOB_AGE_MS,
  type StaleFileOptions,
} from "./stale-files.js";
export { stripControlSequences } from "./strip-control.js";
export { type HostContent, toHostContent } from "./to-host-content.js";
export { maybeEncodeToon } from "./toon.js";
