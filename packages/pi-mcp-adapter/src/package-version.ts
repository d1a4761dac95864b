import { createRequire } from "node:module";

/**
 * This package's version, reported to servers as the client version. Read by
 * the package's own name (its `exports` list `./package.json`), so it does not
 * depend on how deep in `dist` the bundled file that reads it sits.
 */
export const PACKAGE_VERSION: string = (
  createRequire(import.meta.url)("pi-mcp-adapter/package.json") as { version: string }
).version;
