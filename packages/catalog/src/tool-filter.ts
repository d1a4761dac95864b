/**
 * `includeTools` / `excludeTools`: tool globs with core's one meaning
 * (`matchesToolGlob`: picomatch syntax, case-insensitive, `/` and `.`
 * ordinary, matched against the original or the prefixed name). With an
 * include list only matching tools stay; exclude always wins.
 */
import { matchesAnyToolGlob, type ToolNames } from "@pi-mcp-adapter/core";

export interface ToolFilter {
  includeTools?: readonly string[];
  excludeTools?: readonly string[];
}

export function isToolIncluded(names: ToolNames, filter: ToolFilter): boolean {
  if (filter.excludeTools && matchesAnyToolGlob(filter.excludeTools, names)) return false;
  if (filter.includeTools && filter.includeTools.length > 0)
    return matchesAnyToolGlob(filter.includeTools, names);
  return true;
}
