/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/catalog` (src/index.ts). */
const ROOT = [
  "BuildToolMetadataOptions",
  "CACHE_FILE_NAME",
  "CacheFileSchema",
  "CacheFileSystem",
  "CatalogError",
  "CatalogErrorCode",
  "FAILED_LIST_RETRY_MS",
  "INSTRUCTIONS_HEAD_CHARS",
  "INSTRUCTIONS_PREVIEW_CHARS",
  "MAX_LISTING_BYTES",
  "MAX_LISTING_ENTRIES",
  "MetadataCache",
  "MetadataCacheOptions",
  "PinComparison",
  "PromptListing",
  "ResourceListing",
  "ResourceTemplateListing",
  "ServerListing",
  "ServerListingSchema",
  "ServerPins",
  "SkippedList",
  "SkippedListSchema",
  "TextDiff",
  "ToolChange",
  "ToolFilter",
  "ToolPin",
  "acceptToolChanges",
  "buildServerMetadata",
  "checkListingLimits",
  "compareToolPins",
  "hashToolsAhead",
  "instructionsHead",
  "instructionsPreview",
  "listingLimitProblem",
  "resourceNameToToolName",
  "serverIdentity",
  "toolFingerprint",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/catalog exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });
});
