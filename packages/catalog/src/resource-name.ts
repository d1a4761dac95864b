/**
 * Names for resources exposed as callable tools: a valid identifier made from
 * the resource name (special characters become `_`, runs of `_` collapse,
 * leading/trailing `_` go), prefixed with `resource_` when it would otherwise
 * start with a digit, be empty, or not say it is a resource.
 */
export function resourceNameToToolName(name: string): string {
  const base = name
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "")
    .toLowerCase();
  if (base === "") return "resource";
  if (/^[0-9]/.test(base) || !/^resource(_|$)/.test(base)) return `resource_${base}`;
  return base;
}
