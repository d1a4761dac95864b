/**
 * A server's tool metadata built once per cached listing and build options
 * in this process: the startup snapshot (direct tools, the search warm-up)
 * and the session's catalog build it from the same cached listing object,
 * and with the same objects search finds its kept index's key inputs
 * unchanged at once, instead of building a thousand tools again and
 * comparing them field by field on the first search. A listing read live is
 * a new object: built afresh. The warnings a build gave (entries left out)
 * are told again to each later caller that listens.
 */
import {
  type BuildToolMetadataOptions,
  buildServerMetadata,
  type ServerListing,
} from "@pi-mcp-adapter/catalog";
import type { ToolMetadata } from "@pi-mcp-adapter/core";

interface Built {
  key: string;
  metadata: ToolMetadata[];
  warnings: string[];
}

const built = new WeakMap<ServerListing, Built>();

/** `buildServerMetadata`, or what it gave for this listing object with the same options (its warnings told again). */
export function sharedServerMetadata(
  server: string,
  listing: ServerListing,
  options: BuildToolMetadataOptions,
): ToolMetadata[] {
  const { onWarning, ...rest } = options;
  const key = JSON.stringify([
    server,
    rest.toolPrefix ?? null,
    rest.serverNames ?? null,
    rest.includeTools ?? null,
    rest.excludeTools ?? null,
  ]);
  const known = built.get(listing);
  if (known?.key === key) {
    for (const warning of known.warnings) onWarning?.(warning);
    return known.metadata;
  }
  const warnings: string[] = [];
  const metadata = buildServerMetadata(server, listing, {
    ...rest,
    onWarning: (message) => {
      warnings.push(message);
      onWarning?.(message);
    },
  });
  built.set(listing, { key, metadata, warnings });
  return metadata;
}
