/**
 * The plain key lists (`entry-keys.ts`) that report unknown keys and copy a
 * validated file without zod are the schemas' own keys, in their order.
 */
import { OutputGuardLimitsSchema, SandboxSettingSchema } from "@pi-mcp-adapter/core/schemas";
import { describe, expect, it } from "vitest";
import {
  CAPTURE_STATS_KEYS,
  OAUTH_OPTION_KEYS,
  OUTPUT_GUARD_LIMIT_KEYS,
  REQUEST_HEADERS_COMMAND_KEYS,
  SANDBOX_FILESYSTEM_KEYS,
  SANDBOX_KEYS,
  SANDBOX_NETWORK_KEYS,
  SERVER_ENTRY_KEYS,
  SETTING_KEYS,
  TRACE_SETTING_KEYS,
} from "../../src/layers/entry-keys.js";
import { RequestHeadersCommandSchema } from "../../src/layers/request-headers-entry.js";
import { OAuthOptionsSchema, ServerEntrySchema } from "../../src/layers/server-entry-schema.js";
import { SettingsSchema, TraceSettingsSchema } from "../../src/layers/settings-schema.js";

describe("the plain key lists", () => {
  it("are the keys of the schemas, in the schemas' order", () => {
    expect(SERVER_ENTRY_KEYS).toEqual(Object.keys(ServerEntrySchema.shape));
    expect(OAUTH_OPTION_KEYS).toEqual(Object.keys(OAuthOptionsSchema.shape));
    expect(REQUEST_HEADERS_COMMAND_KEYS).toEqual(Object.keys(RequestHeadersCommandSchema.shape));
    expect(SETTING_KEYS).toEqual(Object.keys(SettingsSchema.shape));
    expect(TRACE_SETTING_KEYS).toEqual(Object.keys(TraceSettingsSchema.shape));
    expect(OUTPUT_GUARD_LIMIT_KEYS).toEqual(Object.keys(OutputGuardLimitsSchema.shape));
    const sandbox = SandboxSettingSchema.options[1];
    expect(SANDBOX_KEYS).toEqual(Object.keys(sandbox.shape));
    expect(SANDBOX_NETWORK_KEYS).toEqual(Object.keys(sandbox.shape.network.unwrap().shape));
    expect(SANDBOX_FILESYSTEM_KEYS).toEqual(Object.keys(sandbox.shape.filesystem.unwrap().shape));
    // `captureStats: true | { file }`: the object's keys.
    expect(CAPTURE_STATS_KEYS).toEqual(["file"]);
    expect(SettingsSchema.shape.captureStats.parse({ file: "s.json", other: 1 })).toEqual({ file: "s.json" });
  });
});
