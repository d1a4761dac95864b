import { describe, expect, it } from "vitest";
import {
  ApproveToolsSettingSchema,
  OutputGuardSettingSchema,
  PinToolsSettingSchema,
  SearchKeywordsSettingSchema,
  SpillMaxAgeDaysSchema,
  TaskModeSchema,
  TaskTimeoutMsSchema,
  ToonEncodeSettingSchema,
} from "../src/schemas.js";

const firstIssue = (result: {
  success: boolean;
  error?: { issues: { message: string; path: PropertyKey[] }[] };
}) => result.error?.issues[0];

describe("shared setting schemas", () => {
  it("approveTools takes booleans, destructive, writes or globs, and says so when given anything else", () => {
    for (const ok of [true, false, "destructive", "writes", ["delete_*"]]) {
      expect(ApproveToolsSettingSchema.safeParse(ok).success).toBe(true);
    }
    expect(firstIssue(ApproveToolsSettingSchema.safeParse("always"))?.message).toBe(
      'expected true, false, "destructive", "writes" or a list of tool name globs',
    );
  });

  it("pinTools takes booleans, enforce or warn", () => {
    for (const ok of [true, false, "enforce", "warn"])
      expect(PinToolsSettingSchema.safeParse(ok).success).toBe(true);
    expect(firstIssue(PinToolsSettingSchema.safeParse("off"))?.message).toBe(
      'expected true, false, "enforce" or "warn"',
    );
  });

  it("outputGuard: detailsMaxBytes may be 0 (summary only), the inline caps must be positive", () => {
    expect(OutputGuardSettingSchema.parse({ detailsMaxBytes: 0 })).toEqual({ detailsMaxBytes: 0 });
    expect(OutputGuardSettingSchema.safeParse({ detailsMaxBytes: -1 }).success).toBe(false);
    const zeroBytes = firstIssue(OutputGuardSettingSchema.safeParse({ maxBytes: 0 }));
    expect(zeroBytes?.path).toEqual(["maxBytes"]);
    expect(OutputGuardSettingSchema.safeParse({ maxLines: 1.5 }).success).toBe(false);
  });

  it("outputGuard rejects a misspelt limit instead of silently ignoring it", () => {
    expect(firstIssue(OutputGuardSettingSchema.safeParse({ maxbytes: 10 }))?.message).toMatch(/maxbytes/);
    expect(firstIssue(OutputGuardSettingSchema.safeParse("on"))?.message).toBe(
      "expected true, false or { maxBytes, maxLines, detailsMaxBytes }",
    );
  });

  it("spillMaxAgeDays is a number of days above 0, fractions allowed", () => {
    expect(SpillMaxAgeDaysSchema.parse(7)).toBe(7);
    expect(SpillMaxAgeDaysSchema.parse(0.5)).toBe(0.5);
    expect(firstIssue(SpillMaxAgeDaysSchema.safeParse(0))?.message).toBe(
      "expected a number of days greater than 0",
    );
    expect(firstIssue(SpillMaxAgeDaysSchema.safeParse("7"))?.message).toBe("expected a number of days");
  });

  it("toonEncode takes a boolean or server names; searchKeywords a glob → words object", () => {
    expect(ToonEncodeSettingSchema.parse(["github"])).toEqual(["github"]);
    expect(ToonEncodeSettingSchema.safeParse("github").success).toBe(false);
    expect(SearchKeywordsSettingSchema.parse({ "create_*": ["new"] })).toEqual({ "create_*": ["new"] });
    expect(firstIssue(SearchKeywordsSettingSchema.safeParse({ create: "new" }))?.path).toEqual(["create"]);
  });

  it("tasks is auto, always or never, and says so; taskTimeoutMs is a positive integer", () => {
    expect(TaskModeSchema.parse("always")).toBe("always");
    expect(firstIssue(TaskModeSchema.safeParse("sometimes"))?.message).toBe(
      'expected "auto", "always" or "never"',
    );
    expect(TaskTimeoutMsSchema.safeParse(0).success).toBe(false);
    expect(TaskTimeoutMsSchema.parse(60_000)).toBe(60_000);
  });
});
