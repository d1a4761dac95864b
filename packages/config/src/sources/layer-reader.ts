/**
 * Turns the documents config sources read into layers, choosing each one's
 * check (`layers/layer-check.ts`): a config file whose bytes validated
 * cleanly before (`files/validated-files.ts`) is copied without zod; any
 * other is validated with zod, as always, and noted when clean. Sources that
 * are not plain config files (imports, plugins, packages, inline) always
 * validate, through `check()`.
 */
import type { ReadStamp } from "../files/read-json-file.js";
import type { ValidatedFiles } from "../files/validated-files.js";
import { type ConfigLayer, parseConfigLayer } from "../layers/config-layer.js";
import { copyValidated, type LayerCheck } from "../layers/layer-check.js";
import { loadLayerCheck } from "../layers/layer-check-loader.js";
import type { SourceScope } from "../layers/source-scope.js";

export interface LayerReader {
  /** A config file's document as a layer; `stamp` is the file as it was read. */
  fileLayer(document: unknown, file: string, scope: SourceScope, stamp?: ReadStamp): Promise<ConfigLayer>;
  /** Zod's check, loaded on first use. */
  check(): Promise<LayerCheck>;
}

export function createLayerReader(validated: ValidatedFiles | undefined): LayerReader {
  return {
    async fileLayer(document, file, scope, stamp) {
      const identity =
        validated && stamp?.sha256 !== undefined
          ? { size: stamp.size, mtimeMs: stamp.mtimeMs, sha256: stamp.sha256 }
          : undefined;
      if (identity && validated?.has(file, identity))
        return parseConfigLayer(document, file, scope, copyValidated);
      const layer = parseConfigLayer(document, file, scope, await loadLayerCheck());
      if (identity) validated?.note(file, identity, !layer.problems.some((p) => p.severity === "error"));
      return layer;
    },
    check: loadLayerCheck,
  };
}
