import { createHash } from "node:crypto";
import type { ToolPrefixMode } from "./server-definition.js";

/** Model providers reject tool names longer than this. */
export const MAX_TOOL_NAME_LENGTH = 64;

const NOT_NAME_CHAR = /[^A-Za-z0-9_]+/g;

/** Folds every run of characters other than letters, digits and `_` into one `_`. */
export function foldName(value: string): string {
  return value.replace(NOT_NAME_CHAR, "_");
}

/** The server part of a prefixed name for a prefix mode (`short` drops a `-mcp`/`_mcp` suffix). */
export function serverPrefix(server: string, mode: ToolPrefixMode): string {
  const base = mode === "short" ? server.replace(/[-_]mcp$/i, "") || server : server;
  return foldName(base);
}

/**
 * The name a tool is exposed under.
 *
 * - `server` (default): `<server>_<tool>`, e.g. `chrome_devtools_take_screenshot`
 * - `short`: like `server` with a trailing `-mcp` stripped from the server name
 * - `none`: the tool's own name
 * - `mcp`: `mcp__<server>__<tool>`
 *
 * A tool whose (folded) name already starts with the server part and `_`
 * keeps it in `server` and `short` modes: server `github`'s `github_search`
 * is `github_search`, not `github_github_search` (as 2.36 names it).
 * `doubled: true` gives the plain `<server>_<tool>` form instead, the
 * fallback `uniqueToolNames` uses when that name is taken.
 *
 * Characters a provider would reject are folded to `_`. Names longer than 64
 * characters are cut and end in a short hash of the full name, so two long
 * names never collide.
 */
export function prefixedToolName(
  server: string,
  tool: string,
  mode: ToolPrefixMode = "server",
  options: { doubled?: boolean } = {},
): string {
  const prefix = mode === "none" ? "" : serverPrefix(server, mode);
  return nameFromParts(prefix, foldName(tool), mode, options.doubled);
}

/**
 * `prefixedToolName` from its parts: the server's `serverPrefix` for the mode and the tool's folded
 * name (for a server's many tools, the prefix is made once).
 */
export function nameFromParts(
  prefix: string,
  toolPart: string,
  mode: ToolPrefixMode,
  doubled = false,
): string {
  let name: string;
  switch (mode) {
    case "none":
      name = toolPart;
      break;
    case "mcp":
      name = `mcp__${prefix}__${toolPart}`;
      break;
    default:
      name = !doubled && carriesPrefix(toolPart, prefix) ? toolPart : `${prefix}_${toolPart}`;
  }
  return limitToolNameLength(name);
}

/** Whether a (folded) tool name already starts with `prefix` and `_`, with more after it. */
export function carriesPrefix(toolPart: string, prefix: string): boolean {
  return toolPart.length > prefix.length + 1 && toolPart.startsWith(`${prefix}_`);
}

/** `name` itself when short enough, else cut and ended by a short hash of the whole name. */
export function limitToolNameLength(name: string): string {
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - hash.length - 1)}_${hash}`;
}
