import { createRequire } from "node:module";

declare const __PACKAGE_VERSION__: string | undefined;

/**
 * A package's version as `<name>/package.json` says. `bundled` is the
 * package's own `__PACKAGE_VERSION__`, which scripts/bundle-dist.mjs writes
 * into its build: a built package needs no read at all (resolving a
 * `package.json` through Node's loader costs a start-up about a millisecond
 * each). Run from source (tests), it is undefined and the file is read.
 */
export function packageVersion(name: string, bundled: string | undefined, from: string): string {
  return bundled ?? (createRequire(from)(`${name}/package.json`) as { version: string }).version;
}

/** This package's version. */
export const CORE_VERSION: string = packageVersion(
  "@pi-mcp-adapter/core",
  typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : undefined,
  import.meta.url,
);
