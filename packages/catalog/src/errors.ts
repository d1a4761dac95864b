import { McpAdapterError } from "@pi-mcp-adapter/core";

/**
 * Errors of the catalog. Codes:
 * - `catalog_too_large`: a server listed more entries or more descriptor data than a catalog takes
 */
export class CatalogError extends McpAdapterError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "CatalogError";
  }
}
