/**
 * The catalog's error: a stable `code` callers branch on, and a message naming
 * the server and the limit it passed. Part of core's `McpAdapterError` family.
 */
import { McpAdapterError } from "@pi-mcp-adapter/core";

export type CatalogErrorCode =
  /** A server listed more entries or more descriptor data than a catalog takes. */
  "catalog_too_large";

export class CatalogError extends McpAdapterError {
  declare readonly code: CatalogErrorCode;

  constructor(code: CatalogErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "CatalogError";
  }
}
