import { createRequire } from "node:module";

/** This package's version, reported to servers as the client version. */
export const PACKAGE_VERSION: string = (
  createRequire(import.meta.url)("../package.json") as { version: string }
).version;
