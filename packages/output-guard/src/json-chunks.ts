/**
 * JSON text of a value produced in pieces: long strings are split, so the
 * raw JSON of a huge result can be measured or written to a file without
 * ever building the whole JSON string.
 */

const STRING_PIECE = 64 * 1024;

/** Yields the same text `JSON.stringify(value)` returns, in pieces. */
export function* jsonChunks(value: unknown): Generator<string> {
  if (typeof value === "string") {
    yield* stringChunks(value);
    return;
  }
  if (value === null || typeof value !== "object") {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") {
    yield* jsonChunks(withToJson.toJSON());
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const item: unknown = value[i];
      yield* isSkipped(item) ? ["null"] : jsonChunks(item);
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (isSkipped(item)) continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonChunks(item);
  }
  yield "}";
}

function* stringChunks(value: string): Generator<string> {
  if (value.length <= STRING_PIECE) {
    yield JSON.stringify(value);
    return;
  }
  yield '"';
  let start = 0;
  while (start < value.length) {
    let end = Math.min(value.length, start + STRING_PIECE);
    const last = value.charCodeAt(end - 1);
    if (end < value.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield JSON.stringify(value.slice(start, end)).slice(1, -1);
    start = end;
  }
  yield '"';
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** The UTF-8 size of `value`'s JSON when it is at most `limit` bytes; `undefined` when larger. */
export function jsonSizeWithin(value: unknown, limit: number): number | undefined {
  let size = 0;
  for (const chunk of jsonChunks(value)) {
    size += Buffer.byteLength(chunk, "utf8");
    if (size > limit) return undefined;
  }
  return size;
}
