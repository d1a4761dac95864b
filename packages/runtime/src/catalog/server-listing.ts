/**
 * What one live server lists: its tools (unless it declared none), and its
 * resources, resource templates and prompts when it declared those
 * capabilities. Only the tools must come: a declared list that fails is
 * left out and noted in the listing's `skipped` — as `unsupported` when
 * the server answered -32601 (method not found: it does not have that
 * list, whatever it declared), as `failed` otherwise — so the tools are
 * listed, cached and searched all the same. The metadata cache serves a
 * listing with a `failed` list for an hour only, then it is listed again.
 * Skills (SEP-2640) are listed as entries only, checked one by one (a
 * refused entry is kept apart with its reason): no skill file is read at list time.
 */
import type { ServerListing, SkippedList } from "@pi-mcp-adapter/catalog";
import { describeError } from "@pi-mcp-adapter/core";
import type { ServerConnection } from "@pi-mcp-adapter/transport";

/** What the catalog needs of a live connection; the listing methods beyond tools are optional. */
export type ListingSource = Pick<ServerConnection, "listTools" | "instructions"> &
  Partial<
    Pick<
      ServerConnection,
      | "features"
      | "listResources"
      | "listResourceTemplates"
      | "listPrompts"
      | "listSkills"
      | "closed"
      | "serverVersion"
      | "cacheHints"
    >
  >;

/** JSON-RPC's "method not found". */
const METHOD_NOT_FOUND = -32601;
/** A skipped list's error is kept this short (it is cached and shown in status). */
const ERROR_CHARS = 300;
/** A server's own title and description are kept this short (search reads their start only). */
const SERVER_INFO_CHARS = 2_000;

export async function listServer(source: ListingSource): Promise<ServerListing> {
  const features = source.features;
  const skipped: SkippedList[] = [];
  const optional = <T>(
    list: SkippedList["list"],
    offered: boolean | undefined,
    lister: (() => Promise<T[]>) | undefined,
  ) =>
    offered && lister
      ? lister().catch((error: unknown) => {
          skipped.push(skippedList(list, error));
          return undefined;
        })
      : Promise.resolve(undefined);
  const [tools, resources, resourceTemplates, prompts, skills] = await Promise.all([
    // A server that declared no tools (only prompts or resources, say) would answer tools/list with an error.
    features && !features.tools ? Promise.resolve([]) : source.listTools(),
    optional("resources/list", features?.resources, source.listResources?.bind(source)),
    optional("resources/templates/list", features?.resources, source.listResourceTemplates?.bind(source)),
    optional("prompts/list", features?.prompts, source.listPrompts?.bind(source)),
    optional("skills/list", features?.skills, async () => (await source.listSkills?.()) ?? []),
  ]);
  // A connection that ended while listing has not said what it lacks: that is no listing at all.
  if (skipped.length && source.closed) throw new Error("the connection closed while listing");
  const listing: ServerListing = { tools };
  if (resources?.length) listing.resources = resources;
  if (resourceTemplates?.length) listing.resourceTemplates = resourceTemplates;
  if (prompts?.length) listing.prompts = prompts;
  // Kept even when empty: a server that offers skills and lists none now is not a server without skills.
  if (skills) {
    // The entries' check loads zod: only when a server lists skills, never on a host's start path.
    const { checkSkillListing } = await import("@pi-mcp-adapter/catalog/schemas");
    // An entry that fails the checks stays out, and is kept with why, for status to show.
    const checked = checkSkillListing(skills);
    listing.skills = checked.skills;
    if (checked.refused.length) listing.refusedSkills = checked.refused;
  }
  if (source.instructions) listing.instructions = source.instructions;
  const serverInfo = ownWords(source.serverVersion);
  if (serverInfo) listing.serverInfo = serverInfo;
  if (skipped.length) listing.skipped = ORDER.flatMap((list) => skipped.filter((s) => s.list === list));
  return listing;
}

/** The title and description a server gave of itself (capped), or `undefined` when it gave neither. */
function ownWords(info: ListingSource["serverVersion"]): ServerListing["serverInfo"] {
  const out: NonNullable<ServerListing["serverInfo"]> = {};
  if (info?.title) out.title = info.title.slice(0, SERVER_INFO_CHARS);
  if (info?.description) out.description = info.description.slice(0, SERVER_INFO_CHARS);
  return out.title || out.description ? out : undefined;
}

/** Skipped lists in a fixed order, so the same failures give the same cache entry. */
const ORDER: readonly SkippedList["list"][] = [
  "resources/list",
  "resources/templates/list",
  "prompts/list",
  "skills/list",
];

function skippedList(list: SkippedList["list"], error: unknown): SkippedList {
  const text = describeError(error);
  return {
    list,
    reason: rpcCode(error) === METHOD_NOT_FOUND ? "unsupported" : "failed",
    error: text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS - 1)}…` : text,
  };
}

/** The JSON-RPC error code of an error or of one of its causes (the transport wraps the SDK's error). */
function rpcCode(error: unknown): number | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "number") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
