/**
 * The search index of the catalog's tools, built once per tool list and kept
 * on disk beside the metadata cache (`mcp-search-index.bin`), so a session
 * whose servers' tools are as the last session left them reads its first
 * index instead of analysing every tool on its first search. The file is
 * only a shortcut: search's `searchIndexFromBytes` uses it only for exactly
 * the tools, keywords, servers' own text (`serverContext`: title,
 * description, instructions) and search build it was made of, and a missing,
 * stale, damaged or foreign file is passed over in silence and replaced
 * after the index is built. The file is read once per process (the search
 * warm-up's check and the first index of the whole catalog share the bytes,
 * so search keys them once) and written a moment after a build
 * (or at shutdown, whichever comes first), atomically (temp file and rename), so Pi processes sharing it never
 * see a torn file; the last writer's index stays.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type ToolMetadata, writeFileAtomic } from "@pi-mcp-adapter/core";
import {
  createSearchIndex,
  type KeptIndexOptions,
  type SearchIndex,
  type SearchKeywords,
  type ServerContext,
  searchIndexBytes,
  searchIndexFromBytes,
} from "@pi-mcp-adapter/search";

/**
 * What an index is built with besides its tools: the servers' search keywords and their own text; and
 * how to name the tools for the kept file without their text (asked when the file is read or written).
 */
export interface IndexInputs {
  searchKeywords: SearchKeywords;
  serverContext: ServerContext;
  toolsKey?: () => string | undefined;
}

/** The index file's name, in the metadata cache's directory. */
export const SEARCH_INDEX_FILE_NAME = "mcp-search-index.bin";

/** The index file beside a metadata cache file. */
export function searchIndexFileBeside(cacheFile: string): string {
  return path.join(path.dirname(cacheFile), SEARCH_INDEX_FILE_NAME);
}

/** Whether a runtime of this process has made (or read) the index of its whole catalog. */
let wholeIndexed = false;

/** True once a runtime of this process has its whole catalog's index: analysis ahead is then wasted. */
export function wholeCatalogIndexed(): boolean {
  return wholeIndexed;
}

/** The kept file's bytes as this process read them, until the first index of the whole catalog took them. */
const keptBytes = new Map<string, Promise<Uint8Array | undefined>>();

/** The bytes of the index kept in `file` (`undefined`: none), read once for the warm-up and the first index. */
export function keptIndexBytes(file: string): Promise<Uint8Array | undefined> {
  let bytes = keptBytes.get(file);
  if (!bytes) {
    bytes = readFile(file).catch(() => undefined);
    keptBytes.set(file, bytes);
  }
  return bytes;
}

/** Lets go of the kept file's bytes (used, or found not to fit): a later read sees what was written meanwhile. */
export function forgetKeptIndexBytes(file: string): void {
  keptBytes.delete(file);
}

/**
 * How long after a build the index is written: making its bytes (every tool's meaning vector) and writing
 * them take ~50 ms, better spent while the model answers than before the search result reaches it.
 */
const SAVE_DELAY_MS = 1500;

export class SearchIndexStore {
  private readonly indexes = new WeakMap<
    readonly ToolMetadata[],
    { inputs: IndexInputs; index: Promise<SearchIndex> }
  >();
  /** Whether the file was tried (it is, for the first index of the whole catalog only). */
  private tried = false;
  /** The newest index built and not yet saved, and whether a save is under way or due. */
  private unsaved: { index: SearchIndex; toolsKey: IndexInputs["toolsKey"] } | undefined;
  private saving: Promise<void> | undefined;
  /** Ends the wait of a due save. */
  private saveNow: (() => void) | undefined;

  /** `file`: where the index is kept (`undefined`: nowhere, every process builds its own). */
  constructor(private readonly file: string | undefined) {}

  /**
   * The index of `tools` (the same while the same array, keywords and
   * context come again); `whole`: these are the whole catalog's tools, the
   * list worth keeping on disk.
   */
  indexOf(tools: readonly ToolMetadata[], inputs: IndexInputs, whole: boolean): Promise<SearchIndex> {
    const known = this.indexes.get(tools);
    if (
      known?.inputs.searchKeywords === inputs.searchKeywords &&
      known.inputs.serverContext === inputs.serverContext
    )
      return known.index;
    const index = this.make(tools, inputs, whole && this.file !== undefined);
    this.indexes.set(tools, { inputs, index });
    if (whole)
      void index.then(() => {
        wholeIndexed = true;
      });
    return index;
  }

  /** Saves a due index now and settles once no save is under way or due (for shutdown). */
  async saved(): Promise<void> {
    while (this.saving) {
      this.saveNow?.();
      await this.saving;
    }
  }

  private async make(
    tools: readonly ToolMetadata[],
    inputs: IndexInputs,
    keep: boolean,
  ): Promise<SearchIndex> {
    if (keep && !this.tried) {
      this.tried = true;
      const bytes = await keptIndexBytes(this.file!);
      forgetKeptIndexBytes(this.file!);
      const loaded = bytes && searchIndexFromBytes(bytes, tools, keptOptions(inputs));
      if (loaded) return loaded;
    }
    const { searchKeywords, serverContext } = inputs;
    const index = createSearchIndex(tools, { searchKeywords, serverContext });
    if (keep) this.save(index, inputs.toolsKey);
    return index;
  }

  /** Saves `index` a little later (the newest of several built meanwhile), or at `saved()`. */
  private save(index: SearchIndex, toolsKey: IndexInputs["toolsKey"]): void {
    this.unsaved = { index, toolsKey };
    this.saving ??= (async () => {
      while (this.unsaved) {
        // Not at once: the turn that built the index is still on its way to the model.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, SAVE_DELAY_MS);
          timer.unref();
          this.saveNow = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.saveNow = undefined;
        const next = this.unsaved;
        this.unsaved = undefined;
        // Named now: a listing read live has its hash once the cache has stored it (after the build).
        const bytes = searchIndexBytes(next.index, { toolsKey: next.toolsKey?.() });
        // A file that cannot be written only costs the next session the analysis.
        if (bytes) await writeFileAtomic(this.file!, bytes, { mode: 0o600 }).catch(() => {});
      }
      this.saving = undefined;
    })();
  }
}

/** The options the kept file is read with: the keywords, the servers' own text, and the tools' name if known. */
export function keptOptions(inputs: IndexInputs): KeptIndexOptions {
  const toolsKey = inputs.toolsKey?.();
  return {
    searchKeywords: inputs.searchKeywords,
    serverContext: inputs.serverContext,
    ...(toolsKey !== undefined ? { toolsKey } : {}),
  };
}
