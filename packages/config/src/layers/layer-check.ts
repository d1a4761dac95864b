/**
 * How a config layer's values are checked: `LayerCheck` is handed to the
 * parsers of server entries and settings. Two kinds exist. Zod's
 * (`zod-layer-check.ts`) validates, with messages naming the field; it is
 * loaded only when something must be validated (`layer-check-loader.ts`).
 * `copyValidated` here takes a value zod accepted before (its file's bytes
 * unchanged since) and gives what zod's parse gives for it — the same keys in
 * the same order, unknown keys of objects dropped — without loading zod.
 * `trusted-copy.test.ts` runs both over every config example in the repo.
 */
import {
  CAPTURE_STATS_KEYS,
  OAUTH_OPTION_KEYS,
  REQUEST_HEADERS_COMMAND_KEYS,
  SERVER_ENTRY_KEYS,
  TRACE_SETTING_KEYS,
} from "./entry-keys.js";
import type { ServerEntry } from "./server-entry-schema.js";
import type { SettingKey } from "./settings-schema.js";

/** One problem a check found: where inside the value, and what. */
export interface CheckIssue {
  path: readonly PropertyKey[];
  message: string;
}

export type CheckResult<T> = { success: true; data: T } | { success: false; issues: CheckIssue[] };

export interface LayerCheck {
  /** A server entry (reference aliases already applied). */
  entry(value: Record<string, unknown>): CheckResult<ServerEntry>;
  /** The value of one known setting. */
  setting(key: SettingKey, value: unknown): CheckResult<unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The keys of `value` that `keys` lists, in that order; a JSON copy of each value. */
function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(value, key)) out[key] = structuredClone(value[key]);
  return out;
}

/** Objects of the entry whose schema strips unknown keys (the others are strict, records or lists). */
function copyEntry(value: Record<string, unknown>): ServerEntry {
  const entry = pick(value, SERVER_ENTRY_KEYS);
  if (isObject(entry.oauth)) entry.oauth = pick(entry.oauth, OAUTH_OPTION_KEYS);
  if (isObject(entry.requestHeadersCommand))
    entry.requestHeadersCommand = pick(entry.requestHeadersCommand, REQUEST_HEADERS_COMMAND_KEYS);
  return entry as ServerEntry;
}

function copySetting(key: SettingKey, value: unknown): unknown {
  if (key === "trace" && isObject(value)) return pick(value, TRACE_SETTING_KEYS);
  if (key === "captureStats" && isObject(value)) return pick(value, CAPTURE_STATS_KEYS);
  return structuredClone(value);
}

/** For a file whose exact bytes validated cleanly before: zod's output, without zod. */
export const copyValidated: LayerCheck = {
  entry: (value) => ({ success: true, data: copyEntry(value) }),
  setting: (key, value) => ({ success: true, data: copySetting(key, value) }),
};
