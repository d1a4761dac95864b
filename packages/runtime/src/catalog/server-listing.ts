/**
 * What one live server lists: its tools (unless it declared none), and its resources, resource
 * templates and prompts when it declared those capabilities. A failure to
 * list resources or prompts never hides the tools (or the other kind): that
 * part is left out of the listing for this session, and the listing is
 * marked partial so it is not cached as if the server had none.
 */
import type { ServerListing } from "@pi-mcp-adapter/catalog";
import type { ServerConnection } from "@pi-mcp-adapter/transport";

/** What the catalog needs of a live connection; the listing methods beyond tools are optional. */
export type ListingSource = Pick<ServerConnection, "listTools" | "instructions"> &
  Partial<
    Pick<ServerConnection, "features" | "listResources" | "listResourceTemplates" | "listPrompts" | "closed">
  >;

/** A listing, and whether a part of it failed (such a listing serves this session but is not cached). */
export interface ListedServer {
  listing: ServerListing;
  partial: boolean;
}

export async function listServer(source: ListingSource): Promise<ListedServer> {
  const features = source.features;
  let partial = false;
  const optional = <T>(offered: boolean | undefined, list: (() => Promise<T[]>) | undefined) =>
    offered && list
      ? list().catch(() => {
          partial = true;
          return undefined;
        })
      : Promise.resolve(undefined);
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    // A server that declared no tools (only prompts or resources, say) would answer tools/list with an error.
    features && !features.tools ? Promise.resolve([]) : source.listTools(),
    optional(features?.resources, source.listResources?.bind(source)),
    optional(features?.resources, source.listResourceTemplates?.bind(source)),
    optional(features?.prompts, source.listPrompts?.bind(source)),
  ]);
  const listing: ServerListing = { tools };
  if (resources?.length) listing.resources = resources;
  if (resourceTemplates?.length) listing.resourceTemplates = resourceTemplates;
  if (prompts?.length) listing.prompts = prompts;
  if (source.instructions) listing.instructions = source.instructions;
  // A connection that ended while listing has not said what it lacks: that is no listing at all.
  if (partial && source.closed) throw new Error("the connection closed while listing");
  return { listing, partial };
}
