/**
 * Optional TOON encoding of JSON text results: a more compact notation for
 * uniform arrays of objects. Used only when it comes out shorter. The
 * encoder loads on the first result that may be encoded (most sessions
 * never turn TOON on), not with the package.
 */
import type { ToonEncodeSetting } from "@pi-mcp-adapter/core";

/** Texts longer than this are not parsed for TOON: the cost is not worth it for text that is cut anyway. */
export const TOON_MAX_INPUT_CHARS = 4 * 1024 * 1024;

/** `toonEncode` (core's `ToonEncodeSettingSchema`): `true` for every server, or a list of server names. */
export function isToonEnabled(setting: ToonEncodeSetting | undefined, server: string): boolean {
  if (setting === undefined || setting === false) return false;
  return setting === true || setting.includes(server);
}

type ToonEncode = (value: unknown) => string;
let encoder: Promise<ToonEncode> | undefined;

/** The TOON form of a JSON object or array text when it is shorter; `undefined` otherwise. */
export async function maybeEncodeToon(text: string): Promise<string | undefined> {
  if (text.length > TOON_MAX_INPUT_CHARS) return undefined;
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  encoder ??= import("@toon-format/toon").then((toon) => toon.encode);
  const encode = await encoder;
  let encoded: string;
  try {
    encoded = encode(value);
  } catch {
    return undefined;
  }
  return encoded.length < text.length ? encoded : undefined;
}
