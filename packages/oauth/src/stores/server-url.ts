/**
 * The form server URLs are stored and compared in (a record's URL binding),
 * on its own so the store entry loads it without the records' schemas.
 */
import { OAuthError } from "../errors.js";

/** The form URLs are compared in: parsed, without fragment. */
export function normalizeServerUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new OAuthError(
      "invalid_input",
      `Expected an absolute server URL, got "${String(url).slice(0, 80)}"`,
    );
  }
  parsed.hash = "";
  return parsed.href;
}
