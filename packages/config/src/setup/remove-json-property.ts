/**
 * Removing one property from JSONC text without touching its neighbours.
 * jsonc-parser's own removal cuts from the end of the previous property, so
 * a comment trailing that property goes too and the formatter rewrites its
 * line. Here a property that sits on lines of its own is removed whole lines
 * at a time (with its trailing comment); when it was the last one, the comma
 * before it goes too, so strict-JSON readers of the file stay happy.
 */
import { type Edit, findNodeAtLocation, type JSONPath, parseTree } from "jsonc-parser";

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
