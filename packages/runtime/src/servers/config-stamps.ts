/**
 * The config files as a session read them — each file's modification time
 * and size, or that it did not exist — so that a tool name nobody knows can
 * be answered with "this file changed since; reload to apply it" (a server
 * added to a file mid-session is not there until the config is read again).
 * Taken again at every reload, from the stamps the config loader noted as it read the files.
 */
import { stat } from "node:fs/promises";
import type { ResolvedConfig } from "@pi-mcp-adapter/config";

const MISSING = "missing";

/** Reads a file's modification time and size (`fs.stat`'s shape); rejects when it is missing. */
export type StatFile = (file: string) => Promise<{ mtimeMs: number; size: number }>;

export class ConfigStamps {
  private constructor(
    private readonly stamps: ReadonlyMap<string, string>,
    private readonly statFile: StatFile,
  ) {}

  /**
   * Stamps `files` (missing ones included: creating one is a change) with
   * what the config loader noted as it read them (`ResolvedConfig.fileStamps`),
   * so a file is not stat-ed again after the load; one it did not note is stat-ed now.
   */
  static async take(
    files: Iterable<string>,
    loaded: ResolvedConfig["fileStamps"] = [],
    statFile: StatFile = stat,
  ): Promise<ConfigStamps> {
    const noted = new Map(loaded.map((s) => [s.file, s.missing ? MISSING : `${s.mtimeMs}:${s.size}`]));
    const unique = [...new Set(files)];
    const stamps = await Promise.all(
      unique.map(async (file) => [file, noted.get(file) ?? (await stampOf(file, statFile))] as const),
    );
    return new ConfigStamps(new Map(stamps), statFile);
  }

  /** The files that changed, appeared or went away since they were stamped. */
  async changed(): Promise<string[]> {
    const checked = await Promise.all(
      [...this.stamps].map(async ([file, stamp]) =>
        (await stampOf(file, this.statFile)) === stamp ? [] : [file],
      ),
    );
    return checked.flat();
  }
}

async function stampOf(file: string, statFile: StatFile): Promise<string> {
  try {
    const { mtimeMs, size } = await statFile(file);
    return `${mtimeMs}:${size}`;
  } catch {
    return MISSING;
  }
}

/**
 * What to add to "No MCP tool named …" when config files changed since the
 * session read them: the files, and how to apply them in this host
 * (`reloadCommand`, e.g. Pi's `/reload`); nothing when none changed.
 */
export function changedConfigNote(files: readonly string[], reloadCommand: string | undefined): string {
  if (files.length === 0) return "";
  const them = files.length === 1 ? "it" : "them";
  const apply = reloadCommand
    ? `run ${reloadCommand} to apply ${them}`
    : `reload the config to apply ${them}`;
  return ` ${files.join(", ")} changed since this session started; ${apply}.`;
}
