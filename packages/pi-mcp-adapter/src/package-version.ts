import { packageVersion } from "@pi-mcp-adapter/core";

declare const __PACKAGE_VERSION__: string | undefined;

/** This package's version, reported to servers as the client version (a constant once built: see core's `packageVersion`). */
export const PACKAGE_VERSION: string = packageVersion(
  "pi-mcp-adapter",
  typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : undefined,
  import.meta.url,
);
