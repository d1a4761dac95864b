/**
 * Optional TOON encoding of JSON text results: a more compact notation for
 * uniform arrays of objects. Used only when it comes out shorter.
 */
import { encode } from "@toon-format/toon";
import { z } from "zod";

/** `true` for every server, or a list of server names. */
export const ToonEncodeSettingSchema = z.union([z.boolean(), z.array(z.string())]);
export type ToonEncodeSetting = z.infer<typeof ToonEncodeSettingSchema>;

/** Texts longer than this are not parsed for TOON: the cost is not worth it for text that is cut anyway. */
export const TOON_MAX_INPUT_CHARS = 4 * 1024 * 1024;

export function isToonEnabled(setting: ToonEncodeSetting | undefined, server: string): boolean {
  if (setting === undefined || setting === false) return false;
  return setting === true || setting.includes(server);
}

/** The TOON form of a JSON object or array text when it is shorter; `undefined` otherwise. */
export function maybeEncodeToon(text: string): string | undefined {
  if (text.length > TOON_MAX_INPUT_CHARS) return undefined;
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  let encoded: string;
  try {
    encoded = encode(value);
  } catch {
    return undefined;
  }
  return encoded.length < text.length ? encoded : undefined;
}
