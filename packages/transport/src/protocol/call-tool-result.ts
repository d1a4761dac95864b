/**
 * The check SDK v1 makes of every `tools/call` answer (its zod
 * `CallToolResultSchema`), with a fast path for the common answer: an object
 * whose `content` is text blocks only (`type`, `text`, optionally `_meta`),
 * `isError` a boolean or absent, `structuredContent` an object or absent, no
 * `_meta`. Such an answer is exactly what the schema would return, so it is
 * returned as is; anything else goes through the SDK's schema (defaults,
 * stripped keys and its errors unchanged). In Pi, where one call runs per
 * model turn, the schema's parse was a large share of a call's own CPU.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../is-object.js";

/** The answer as the SDK's `callTool` would return it; throws the SDK's validation error otherwise. */
export function checkedCallToolResult(result: unknown): unknown {
  return isPlainTextResult(result) ? result : CallToolResultSchema.parse(result);
}

function isPlainTextResult(value: unknown): boolean {
  if (!isObject(value) || value._meta !== undefined) return false;
  if (value.isError !== undefined && typeof value.isError !== "boolean") return false;
  if (value.structuredContent !== undefined && !isObject(value.structuredContent)) return false;
  const content = value.content;
  if (!Array.isArray(content)) return false;
  for (const block of content) if (!isPlainTextBlock(block)) return false;
  return true;
}

/** `{type: "text", text}` with nothing the schema would strip or check further (`_meta` an object). */
function isPlainTextBlock(block: unknown): boolean {
  if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") return false;
  let keys = 0;
  for (const key in block) {
    keys++;
    if (key !== "type" && key !== "text" && !(key === "_meta" && isObject(block._meta))) return false;
  }
  return keys >= 2;
}
