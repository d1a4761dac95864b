/**
 * `includeTools` / `excludeTools`: globs (`*` any run, `?` one character,
 * case-sensitive) matched against a tool's original or prefixed name. With
 * an include list only matching tools stay; exclude always wins.
 */

export interface ToolFilter {
  includeTools?: readonly string[];
  excludeTools?: readonly string[];
}

const compiled = new Map<string, RegExp>();

export function globMatches(glob: string, value: string): boolean {
  let re = compiled.get(glob);
  if (!re) {
    const body = glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".");
    re = new RegExp(`^${body}$`);
    compiled.set(glob, re);
  }
  return re.test(value);
}

export function isToolIncluded(names: { name: string; prefixedName: string }, filter: ToolFilter): boolean {
  const hit = (glob: string) => globMatches(glob, names.name) || globMatches(glob, names.prefixedName);
  if (filter.excludeTools?.some(hit)) return false;
  if (filter.includeTools && filter.includeTools.length > 0) return filter.includeTools.some(hit);
  return true;
}
