/**
 * The shape of one config source: a row of the table in `source-table.ts`.
 * A row names its scope and reads its layers; it never merges, converts or
 * admits anything (that happens once, after every row is read). What a row
 * may use is in `SourceEnv` and `SourceTrust`; what it found goes back in a
 * `SourceRead`.
 */

import type { ConfigEnvironment } from "../files/config-sources.js";
import type { StampedReads } from "../files/file-stamps.js";
import type { DetectedHostConfig } from "../hosts/load-host-configs.js";
import type { ConfigLayer } from "../layers/config-layer.js";
import type { SourceScope } from "../layers/source-scope.js";
import type { ConfigProblem } from "../problems.js";
import type { ExtensionServerRegistration } from "./extension-servers.js";
import type { LayerReader } from "./layer-reader.js";

/** What a source reads from: the loader's options, and what the rows before it found. */
export interface SourceEnv {
  /** Project directory. */
  cwd: string;
  environment: ConfigEnvironment;
  /** `--mcp-config` / SDK `configPath`, unresolved. */
  configPath?: string;
  /** The inline config (SDK `config`), when there is one. */
  inline?: { config: unknown };
  /** Servers other extensions registered for this session. */
  registrations: readonly ExtensionServerRegistration[];
  /**
   * Layers of the user's own files read so far: a `first` row sees those of
   * the rows above it in the table, an `after-files` row all of them.
   */
  fileLayers: readonly ConfigLayer[];
  /** Reads files and notes each one's stamp for `ResolvedConfig.fileStamps`. */
  reads: StampedReads;
  /** Turns documents into layers, validating what did not validate before. */
  layers: LayerReader;
}

export interface SourceTrust {
  /** False when the host said the project is untrusted: nothing inside the project is read. */
  projectReadable: boolean;
}

/** What one source found. */
export interface SourceRead {
  /** Its layers, lowest precedence first. */
  layers: ConfigLayer[];
  /** Files read, lowest precedence first (for `ResolvedConfig.sources`). */
  files: string[];
  /** Problems about the source itself (a file not found, not trusted, an unknown host); a layer's own problems stay in the layer. */
  problems: ConfigProblem[];
  detectedHostConfigs?: DetectedHostConfig[];
  /** Pi's own MCP files seen (never read). */
  piNativeConfigs?: string[];
  /** Registrations to add below every file once the files' servers are admitted. */
  registrations?: readonly ExtensionServerRegistration[];
}

export interface ConfigSource {
  scope: SourceScope;
  /**
   * When the row is read. `first`: the user's own files, read in table order
   * (project files see the user files' `ancestorConfigRoots`). `after-files`:
   * sources that those files' settings switch on or point at (`imports`,
   * `hostConfigDiscovery`, `agentPluginPaths`), read after every `first` row.
   */
  reads: "first" | "after-files";
  read(env: SourceEnv, trust: SourceTrust): Promise<SourceRead>;
}

/** An empty `SourceRead`, for rows that found nothing. */
export function nothingRead(): SourceRead {
  return { layers: [], files: [], problems: [] };
}

/**
 * Reads one config file into `found`: a missing file is skipped (an error
 * when `required`), an unreadable one is a problem, a read one is a layer.
 */
export async function readFileLayer(
  file: string,
  scope: SourceScope,
  env: Pick<SourceEnv, "reads" | "layers">,
  found: SourceRead,
  required = false,
): Promise<void> {
  const read = await env.reads.readJson(file);
  if (read.kind === "missing") {
    if (required) found.problems.push({ severity: "error", file, message: "config file not found" });
    return;
  }
  if (read.kind === "error") {
    found.problems.push(read.problem);
    return;
  }
  found.files.push(file);
  found.layers.push(await env.layers.fileLayer(read.value, file, scope, read.stamp));
}
