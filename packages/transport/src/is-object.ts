/** A plain JSON object (not null, not an array): the shape check the wire code makes of untrusted values. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
