/** Reads other hosts' config files into config layers (below every shared and adapter source). */

import type { ConfigEnvironment } from "../files/config-sources.js";
import type { StampedReads } from "../files/file-stamps.js";
import { readConfigText, readJsonFile } from "../files/read-json-file.js";
import { type ConfigLayer, emptyLayer } from "../layers/config-layer.js";
import { loadLayerCheck } from "../layers/layer-check-loader.js";
import { parseServerEntry } from "../layers/server-entry.js";
import { extractHostEntries } from "./host-formats.js";
import { type HostConfigFile, type HostId, hostConfigFiles } from "./host-locations.js";

export interface DetectedHostConfig {
  host: HostId;
  file: string;
  scope: "user" | "project";
  servers: string[];
}

export interface HostConfigRead {
  layers: ConfigLayer[];
  detected: DetectedHostConfig[];
}

/**
 * Reads the given hosts' files. Project-scope files are skipped when
 * `readProjectFiles` is false (untrusted project). Layers come back lowest
 * precedence first: hosts in the order given, user files before project files.
 */
export async function readHostConfigs(
  hosts: readonly HostId[],
  environment: ConfigEnvironment,
  cwd: string,
  options: {
    readProjectFiles: boolean;
    /** How files are read (the loader notes each file's stamp); plain reads by default. */
    reads?: Pick<StampedReads, "readText" | "readJson">;
  },
): Promise<HostConfigRead> {
  const reads = options.reads ?? { readText: readConfigText, readJson: readJsonFile };
  const layers: ConfigLayer[] = [];
  const detected: DetectedHostConfig[] = [];
  for (const host of hosts) {
    const files = hostConfigFiles(host, environment, cwd).filter(
      (f) => options.readProjectFiles || f.scope === "user",
    );
    for (const file of files.sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "user" ? -1 : 1))) {
      const layer = await readHostConfigFile(file, cwd, reads);
      if (!layer) continue;
      layers.push(layer);
      detected.push({ host, file: file.file, scope: file.scope, servers: layer.entries.map((e) => e.name) });
    }
  }
  return { layers, detected };
}

async function readHostConfigFile(
  candidate: HostConfigFile,
  cwd: string,
  reads: Pick<StampedReads, "readText" | "readJson">,
): Promise<ConfigLayer | undefined> {
  const { file } = candidate;
  const layer = emptyLayer(file, candidate.scope === "project" ? "project" : "import");
  let document: unknown;
  if (candidate.syntax === "toml") {
    const read = await reads.readText(file);
    if (read.kind === "missing") return undefined;
    if (read.kind === "error") {
      layer.problems.push(read.problem);
      return layer;
    }
    // The TOML parser loads only when a TOML file (codex) is there to read: most starts read none.
    const { parse: parseToml, TomlError } = await import("smol-toml");
    try {
      document = parseToml(read.text);
    } catch (error) {
      const where = error instanceof TomlError ? ` at line ${error.line} column ${error.column}` : "";
      const message = (error as Error).message.split("\n")[0] ?? "";
      layer.problems.push({ severity: "error", file, message: `invalid TOML${where}: ${message}` });
      return layer;
    }
  } else {
    const read = await reads.readJson(file);
    if (read.kind === "missing") return undefined;
    if (read.kind === "error") {
      layer.problems.push(read.problem);
      return layer;
    }
    document = read.value;
  }
  const check = await loadLayerCheck();
  for (const item of extractHostEntries(candidate.format, document, cwd)) {
    if (item.warning)
      layer.problems.push({ severity: "warning", file, field: item.keyPath, message: item.warning });
    const result = parseServerEntry(item.raw, file, item.keyPath, check);
    layer.problems.push(...result.problems);
    if (result.parsed)
      layer.entries.push({ name: item.name, ...result.parsed, source: { file, key: item.keyPath } });
  }
  return layer;
}
