/**
 * The questions hosts and the call path ask of what the servers offer: the
 * catalog view, search (the whole catalog's index kept on disk beside the
 * metadata cache), name resolution, instructions, prompts, completions and
 * the direct-tool plan. Each reads the listings (listings.ts), which list
 * servers not listed yet as a question needs them. A new question is a
 * method here.
 */
import { type NamedSkill, nameSkills } from "@pi-mcp-adapter/catalog";
import type { ToolMetadata } from "@pi-mcp-adapter/core";
import { ambiguityMessage, type RankResult, resolveToolName, searchTools } from "@pi-mcp-adapter/search";
import type { CompletionRequest, CompletionResult } from "@pi-mcp-adapter/transport";
import { RuntimeError } from "../errors.js";
import type { ServerSet } from "../servers/server-set.js";
import { type AutoDirect, decideAutoDirect } from "./auto-direct-tools.js";
import { type DirectToolPlan, type DirectToolSettings, planDirectTools } from "./direct-tools.js";
import type { CatalogView, Listings } from "./listings.js";
import { type PromptEntry, promptEntries } from "./prompt-catalog.js";
import { SearchIndexStore, searchIndexFileBeside } from "./search-index-store.js";
import type { ToolCatalogOptions } from "./tool-catalog.js";
import { findByPrefixedName } from "./tool-name-index.js";
import { ownerOf, requiresApproval, unavailableMessage } from "./unavailable-servers.js";

export interface SearchOptions {
  server?: string;
  limit?: number;
  offset?: number;
  regex?: boolean;
}

export type SearchResult = RankResult & Pick<CatalogView, "unavailable">;

export class CatalogQuestions {
  /** Search indexes of tool lists, the whole catalog's kept on disk beside the metadata cache. */
  private readonly indexes: SearchIndexStore;
  /** The direct-tool settings of the config as last loaded (`reload` may change them). */
  direct: DirectToolSettings;
  /** The session's `directTools: "auto"` decision: given at start-up, else made by the first plan that needs one. */
  private autoDirect: AutoDirect | undefined;
  private readonly localSkills: () => Iterable<string>;

  constructor(
    private readonly servers: ServerSet,
    private readonly listings: Listings,
    options: Pick<ToolCatalogOptions, "cache"> & {
      direct?: DirectToolSettings;
      autoDirect?: AutoDirect;
      /** The host's own skill names, which MCP skills are named around (`Host.localSkillNames`). */
      localSkills?: () => Iterable<string>;
    },
  ) {
    this.localSkills = options.localSkills ?? (() => []);
    this.direct = options.direct ?? {};
    this.autoDirect = options.autoDirect;
    this.indexes = new SearchIndexStore(options.cache && searchIndexFileBeside(options.cache.file));
  }

  /** Tool metadata of every enabled server (or one), discovering servers not listed yet. */
  view(server?: string): Promise<CatalogView> {
    return this.listings.view(server);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    const view = await this.listings.view(options.server);
    const names = this.servers.names();
    const searchKeywords = this.listings.tools.searchKeywords(names);
    // A regex scans the tools as listed; ranked search needs the index (kept on disk for the whole catalog),
    // which also reads what each server says about itself.
    const tools = options.regex
      ? view.tools
      : await this.indexes.indexOf(
          view.tools,
          {
            searchKeywords,
            serverContext: this.listings.tools.serverContext(names),
            toolsKey: () => this.listings.tools.toolsKey(view.tools),
          },
          options.server === undefined,
        );
    const result = await searchTools(query, tools, { ...options, searchKeywords, relevantOnly: true });
    const pending = this.servers.awaitingApproval.filter(
      (p) => options.server === undefined || p.name === options.server,
    );
    return { ...result, unavailable: [...view.unavailable, ...pending.map(requiresApproval)] };
  }

  /** A server's instructions (from its live or cached listing), if it sent any. */
  async instructions(server: string): Promise<string | undefined> {
    const failure = (await this.listings.view(server)).unavailable[0];
    if (failure) throw new RuntimeError("server_unavailable", unavailableMessage(failure));
    return this.listings.tools.instructions(server);
  }

  /**
   * The tool a (possibly misspelled) name refers to; throws with suggestions
   * when none matches, or why when the name is of a server that is unavailable.
   */
  async resolve(name: string, server?: string): Promise<ToolMetadata> {
    // Without a server, the exact prefixed name is the common case; a map saves scanning every
    // tool, and the wait ends as soon as the server that has it is listed.
    const exactIn = (tools: ToolMetadata[]) => findByPrefixedName(tools, name) !== undefined;
    const view = await this.listings.view(server, server === undefined ? exactIn : undefined, name);
    const exact = server === undefined ? findByPrefixedName(view.tools, name) : undefined;
    if (exact) return exact;
    const resolved = resolveToolName(name, view.tools, server);
    if ("match" in resolved) return resolved.match;
    if ("ambiguous" in resolved)
      throw new RuntimeError("ambiguous_tool", ambiguityMessage(name, resolved.ambiguous));
    const owner = ownerOf(name, server, view.unavailable, (s) => this.listings.prefixMode(s));
    if (owner) throw new RuntimeError("server_unavailable", unavailableMessage(owner));
    const hint = resolved.suggestions.length
      ? ` Did you mean: ${resolved.suggestions.map((t) => t.prefixedName).join(", ")}?`
      : "";
    const missing = view.unavailable.length
      ? ` (unavailable: ${view.unavailable.map((u) => `${u.server}: ${u.error}`).join("; ")})`
      : "";
    const stale = await this.servers.changedConfigNote();
    throw new RuntimeError("unknown_tool", `No MCP tool named "${name}".${hint}${missing}${stale}`);
  }

  /** Prompts of every enabled server (or one), listing servers not listed yet; those that could not be listed are in `unavailable`. */
  async prompts(
    server?: string,
  ): Promise<{ prompts: PromptEntry[]; unavailable: CatalogView["unavailable"] }> {
    const view = await this.listings.view(server);
    const names = server ? [server] : this.servers.names();
    return { prompts: names.flatMap((name) => this.knownPrompts(name)), unavailable: view.unavailable };
  }

  /** A server's prompts as far as they are known (live or cached listing), without connecting. */
  knownPrompts(server: string): PromptEntry[] {
    if (this.servers.definition(server)?.disabled) return [];
    return promptEntries(server, this.listings.tools.listing(server), this.listings.tools.metadata(server));
  }

  /**
   * Every enabled server's skills (SEP-2640) as far as they are known: this
   * session's listing, else the metadata cache; never connects. `taken`:
   * names of the host's own skills, which an MCP skill never shadows
   * (default: those the host gives, `Host.localSkillNames`).
   */
  async knownSkills(taken?: Iterable<string>): Promise<NamedSkill[]> {
    const enabled = this.servers.names().filter((name) => !this.servers.definition(name)?.disabled);
    const listed = [];
    for (const server of enabled) {
      await this.listings.known(server).catch(() => undefined);
      const skills = this.listings.tools.listing(server)?.skills;
      if (skills) listed.push({ server, skills });
    }
    return nameSkills(listed, taken ?? this.localSkills());
  }

  /**
   * A skill `server` serves at `uri`, listed or not (an empty listing is not
   * "no skills"): its entry from `skills/get` (connecting the server), checked.
   */
  async skillByUri(server: string, uri: string): Promise<NamedSkill> {
    const entry = await (await this.servers.get(server)).getSkill(uri);
    // The entry's check loads zod: only here, when a skill is fetched by URI.
    const checked = (await import("@pi-mcp-adapter/catalog/schemas")).checkSkillEntry(entry);
    if ("problems" in checked) {
      throw new RuntimeError(
        "unknown_skill",
        `${server} serves no valid skill at ${uri}: ${checked.problems.join("; ")}`,
      );
    }
    const [named] = nameSkills([{ server, skills: [checked.entry] }], this.localSkills());
    return named as NamedSkill;
  }

  /** `completion/complete` on `server` (connecting it): values for a prompt argument or a template variable; none when it is disabled. */
  async complete(
    server: string,
    request: CompletionRequest,
    signal?: AbortSignal,
  ): Promise<CompletionResult> {
    if (this.servers.require(server).disabled) return { values: [] };
    return (await this.servers.get(server)).complete(request, { signal });
  }

  /**
   * The direct-tool plan of every server whose metadata is known (memory,
   * cache, or `known` — e.g. the startup snapshot's); nothing connects.
   * `reserved`: names the host uses.
   */
  directTools(
    reserved: Iterable<string> = [],
    known?: (server: string) => readonly ToolMetadata[] | undefined,
  ): DirectToolPlan {
    const servers = this.servers.names().map((name) => ({
      definition: this.servers.require(name),
      metadata: this.listings.tools.metadata(name) ?? known?.(name),
    }));
    this.autoDirect ??= decideAutoDirect(servers, this.direct);
    return planDirectTools(servers, this.direct, reserved, this.autoDirect);
  }

  /** Settles once the search index due to be kept on disk is written (or could not be). */
  indexSaved(): Promise<void> {
    return this.indexes.saved();
  }
}
