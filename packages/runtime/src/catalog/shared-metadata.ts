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
import { hash } from "node:crypto";
import {
  type BuildToolMetadataOptions,
  buildServerMetadata,
  listingTextHash,
  type ServerListing,
} from "@pi-mcp-adapter/catalog";
import { filesStamp, type ToolMetadata } from "@pi-mcp-adapter/core";

interface Built {
  key: string;
  metadata: ToolMetadata[];
  warnings: string[];
}

const built = new WeakMap<ServerListing, Built>();
/** What each metadata array was built from: its listing and the build options' key. */
const sources = new WeakMap<readonly ToolMetadata[], { listing: ServerListing; key: string }>();

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
  sources.set(metadata, { listing, key });
  return metadata;
}

/**
 * A name for exactly the tools of these servers' metadata (in this order), for keying the kept search
 * index without hashing a thousand tools' text: what each was built from — the hash of its cached
 * listing's text (catalog's `listingTextHash`) and the build options — and which build of the code that
 * turns listings into metadata (catalog, core and this package) did it. `undefined` when one of them
 * is not known so (a listing the cache never held, metadata not built here, a build not found): the
 * index is then keyed by the tools' text, as before.
 */
export function metadataToolsKey(
  metadata: readonly (readonly ToolMetadata[] | undefined)[],
): string | undefined {
  const stamp = buildStamp();
  if (stamp === undefined) return undefined;
  const parts = [stamp];
  for (const tools of metadata) {
    if (!tools?.length) continue;
    const source = sources.get(tools);
    const listingHash = source && listingTextHash(source.listing);
    if (listingHash === undefined) return undefined;
    parts.push(source!.key, listingHash);
  }
  return hash("sha256", parts.join("\u0000"), "hex");
}

/** The files of the code that makes metadata, stamped once per process (`null`: one could not be found). */
let stamped: string | null | undefined;

function buildStamp(): string | undefined {
  if (stamped === undefined) {
    try {
      stamped =
        filesStamp([
          import.meta.url,
          import.meta.resolve("@pi-mcp-adapter/catalog"),
          import.meta.resolve("@pi-mcp-adapter/core"),
        ]) ?? null;
    } catch {
      // No `import.meta.resolve` here (a bundle, an older Node): the index is keyed by the tools' text.
      stamped = null;
    }
  }
  return stamped ?? undefined;
}
