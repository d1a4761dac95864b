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
  "CacheFileSystem",
  "CatalogError",
  "CatalogErrorCode",
  "FAILED_LIST_RETRY_MS",
  "INSTRUCTIONS_HEAD_CHARS",
  "INSTRUCTIONS_PREVIEW_CHARS",
  "LoadedSkill",
  "MAX_LISTING_BYTES",
  "MAX_LISTING_ENTRIES",
  "MetadataCache",
  "MetadataCacheOptions",
  "NamedSkill",
  "PinComparison",
  "PromptListing",
  "RefusedSkillEntry",
  "ResourceListing",
  "ResourceTemplateListing",
  "SKILL_LIMITS",
  "ServerListing",
  "ServerPins",
  "SkillEntry",
  "SkillFileEntry",
  "SkillReadResult",
  "SkillSource",
  "SkillVerificationError",
  "SkillVerificationReason",
  "SkippedList",
  "TextDiff",
  "ToolChange",
  "ToolFilter",
  "ToolPin",
  "VerifiedSkillFile",
  "acceptToolChanges",
  "buildServerMetadata",
  "checkListingLimits",
  "compareToolPins",
  "hashToolsAhead",
  "instructionsHead",
  "instructionsPreview",
  "listingLimitProblem",
  "listingTextHash",
  "loadSkill",
  "nameSkills",
  "readSkillFile",
  "refusedSkillNote",
  "resolveSkillRef",
  "resourceNameToToolName",
  "serverIdentity",
  "skillFilesFingerprint",
  "skillRoot",
  "toolFingerprint",
  "verifySkillFile",
];

/** `@pi-mcp-adapter/catalog/schemas` (src/schemas.ts): what loads zod. */
const SCHEMAS = [
  "CacheFileSchema",
  "ServerListingSchema",
  "SkillEntry",
  "SkillEntrySchema",
  "SkillFileEntry",
  "SkillFileEntrySchema",
  "SkippedList",
  "SkippedListSchema",
  "checkSkillEntry",
  "checkSkillListing",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/catalog exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/catalog/schemas exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/schemas.ts", import.meta.url), SCHEMAS)).toEqual(NONE);
  });
});
