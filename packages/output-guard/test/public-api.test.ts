/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/output-guard` (src/index.ts). */
const ROOT = [
  "BlobLimits",
  "BlobStore",
  "BlobStoreOptions",
  "DEFAULT_SPILL_MAX_AGE_DAYS",
  "GuardContext",
  "GuardedResult",
  "HostContent",
  "OutputGuard",
  "OutputGuardError",
  "OutputGuardErrorCode",
  "OutputGuardOptions",
  "OutputGuardSetting",
  "ResolvedOutputGuard",
  "ResultDetails",
  "ResultSummary",
  "STALE_BLOB_AGE_MS",
  "SavedBlob",
  "SpillFile",
  "SpillInfo",
  "SpillWriter",
  "StaleFileOptions",
  "ToonEncodeSetting",
  "boundDetails",
  "boundText",
  "createBlobStore",
  "createFileSpillWriter",
  "createOutputGuard",
  "jsonChunks",
  "maybeEncodeToon",
  "removeStaleGuardFiles",
  "resolveOutputGuard",
  "spillMaxAgeMs",
  "stripControlSequences",
  "toHostContent",
];

/** `@pi-mcp-adapter/output-guard/schemas` (src/schemas.ts): what loads zod. */
const SCHEMAS = [
  "OutputGuardLimitsSchema",
  "OutputGuardSetting",
  "OutputGuardSettingSchema",
  "ToonEncodeSetting",
  "ToonEncodeSettingSchema",
  "parseOutputGuardSetting",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/output-guard exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/output-guard/schemas exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/schemas.ts", import.meta.url), SCHEMAS)).toEqual(NONE);
  });
});
