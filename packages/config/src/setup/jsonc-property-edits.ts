/**
 * Adding or removing one property of JSONC text without touching its
 * neighbours. jsonc-parser's `modify` formats from the start of the line it
 * edits, so the previous property's line is rewritten (and a removal also
 * takes the comment trailing it). Here, in an object laid out one property
 * per line, a new property is inserted as lines of its own after the last
 * one, in the file's indentation and trailing-comma style, and a removed
 * property goes as whole lines with its trailing comment (the comma before
 * it too when it was the last, so strict-JSON readers stay happy). Other
 * layouts return `undefined` and the caller falls back to `modify`.
 */
import { type Edit, findNodeAtLocation, type JSONPath, type Node, parseTree } from "jsonc-parser";

const NO_TREE: Node = { type: "null", offset: 0, length: 0 };

/** The edits that add `key` (not present yet) to the object at `objectPath`, or `undefined`. */
export function insertPropertyEdits(
  text: string,
  objectPath: JSONPath,
  key: string,
  value: unknown,
  unit: string,
  eol: string,
): Edit[] | undefined {
  const root = parseTree(text);
  const object = objectPath.length ? findNodeAtLocation(root ?? NO_TREE, objectPath) : root;
  const last = object?.type === "object" ? object.children?.at(-1) : undefined;
  if (!object || !last) return undefined;
  const lineStart = text.lastIndexOf("\n", last.offset - 1) + 1;
  const indent = text.slice(lineStart, last.offset);
  if (indent.trim() !== "") return undefined;
  const lastEnd = last.offset + last.length;
  const comma = /^[ \t]*,/.exec(text.slice(lastEnd));
  const lineEnd = text.indexOf("\n", lastEnd);
  const closing = object.offset + object.length - 1;
  if (lineEnd < 0 || lineEnd > closing) return undefined;
  const body = JSON.stringify(value, null, unit).replaceAll("\n", `${eol}${indent}`);
  const property = `${indent}${JSON.stringify(key)}: ${body}${comma ? "," : ""}${eol}`;
  const edits: Edit[] = [{ offset: lineEnd + 1, length: 0, content: property }];
  if (!comma) edits.unshift({ offset: lastEnd, length: 0, content: "," });
  return edits;
}

/** The edits that remove the property at `path`, or `undefined` when it does not sit on lines of its own. */
export function removePropertyEdits(text: string, path: JSONPath): Edit[] | undefined {
  const property = findNodeAtLocation(
    parseTree(text) ?? { type: "null", offset: 0, length: 0 },
    path,
  )?.parent;
  const siblings = property?.parent?.children;
  if (property?.type !== "property" || !siblings) return undefined;
  const lineStart = text.lastIndexOf("\n", property.offset - 1) + 1;
  if (text.slice(lineStart, property.offset).trim() !== "") return undefined;
  const end = property.offset + property.length;
  const rest = /^[ \t]*(,?)[ \t]*(\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?\r?\n/.exec(text.slice(end));
  if (!rest) return undefined;
  const edits: Edit[] = [{ offset: lineStart, length: end + rest[0].length - lineStart, content: "" }];
  const index = siblings.indexOf(property);
  const previous = siblings[index - 1];
  if (!rest[1] && index === siblings.length - 1 && previous) {
    const previousEnd = previous.offset + previous.length;
    const comma = /^[ \t]*,/.exec(text.slice(previousEnd));
    if (comma) edits.unshift({ offset: previousEnd + comma[0].length - 1, length: 1, content: "" });
  }
  return edits;
}
