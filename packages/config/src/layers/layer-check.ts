/**
 * How a config layer's values are checked: `LayerCheck` is handed to the
 * parsers of server entries and settings. Two kinds exist. Zod's
 * (`zod-layer-check.ts`) validates, with messages naming the field; it is
 * loaded only when something must be validated (`layer-check-loader.ts`).
 * `copyValidated` here takes a value zod accepted before (its file's bytes
 * unchanged since) and gives what zod's parse gives for it — the same keys in
 * the same order (an object's in its schema's order), unknown keys of
 * objects dropped — without loading zod.
 * `test/layers/validated-copy.test.ts` runs both over every config in the repo.
 */
import {
  CAPTURE_STATS_KEYS,
  OAUTH_OPTION_KEYS,
  OUTPUT_GUARD_LIMIT_KEYS,
  REQUEST_HEADERS_COMMAND_KEYS,
  SANDBOX_FILESYSTEM_KEYS,
  SANDBOX_KEYS,
  SANDBOX_NETWORK_KEYS,
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

/** A `sandbox` object: zod builds it (strict, so no key is dropped) in its schema's order. */
function copySandbox(value: Record<string, unknown>): Record<string, unknown> {
  const sandbox = pick(value, SANDBOX_KEYS);
  if (isObject(sandbox.network)) sandbox.network = pick(sandbox.network, SANDBOX_NETWORK_KEYS);
  if (isObject(sandbox.filesystem)) sandbox.filesystem = pick(sandbox.filesystem, SANDBOX_FILESYSTEM_KEYS);
  return sandbox;
}

/** Every object of an entry that zod rebuilds by its schema's keys; records and lists keep theirs. */
function copyEntry(value: Record<string, unknown>): ServerEntry {
  const entry = pick(value, SERVER_ENTRY_KEYS);
  if (isObject(entry.oauth)) entry.oauth = pick(entry.oauth, OAUTH_OPTION_KEYS);
  if (isObject(entry.requestHeadersCommand))
    entry.requestHeadersCommand = pick(entry.requestHeadersCommand, REQUEST_HEADERS_COMMAND_KEYS);
  if (isObject(entry.sandbox)) entry.sandbox = copySandbox(entry.sandbox);
  return entry as ServerEntry;
}

function copySetting(key: SettingKey, value: unknown): unknown {
  if (!isObject(value)) return structuredClone(value);
  if (key === "trace") return pick(value, TRACE_SETTING_KEYS);
  if (key === "captureStats") return pick(value, CAPTURE_STATS_KEYS);
  if (key === "outputGuard") return pick(value, OUTPUT_GUARD_LIMIT_KEYS);
  return structuredClone(value);
}

/** For a file whose exact bytes validated cleanly before: zod's output, without zod. */
export const copyValidated: LayerCheck = {
  entry: (value) => ({ success: true, data: copyEntry(value) }),
  setting: (key, value) => ({ success: true, data: copySetting(key, value) }),
};
