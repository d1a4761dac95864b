/**
 * A hand-written check of the tool pins inside `mcp-cache.json`, accepting
 * exactly what `PinsSchema` (`pins-schema.ts`) accepts, without zod: the
 * cache file is read on a host's start path.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  // Indexed, not `every`: a hole counts as `undefined`, as zod sees it.
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== "string") return false;
  return true;
}

function isToolPin(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.fingerprint === "string" &&
    typeof value.description === "string" &&
    isStringArray(value.params) &&
    typeof value.schema === "string" &&
    (value.annotations === undefined || isObject(value.annotations)) &&
    (value.unreviewed === undefined || typeof value.unreviewed === "boolean")
  );
}

/** True when `value` has the shape `PinsSchema` accepts (absent counts: pins are optional). */
export function isPins(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  return Object.values(value).every(
    (server) =>
      isObject(server) &&
      typeof server.identity === "string" &&
      isObject(server.tools) &&
      Object.values(server.tools).every(isToolPin),
  );
}
