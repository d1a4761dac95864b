/**
 * Loads zod's `LayerCheck` only when something must be validated, once per
 * process: `await loadLayerCheck()` where the caller may wait (config
 * loading), `layerCheckNow()` where it must answer at once (a registration
 * over Pi's event bus, an edit command). Node ≥ 20.19 loads an ES module
 * synchronously with `require`; the package's own `./schemas` entry holds it.
 */
import { createRequire } from "node:module";
import type { LayerCheck } from "./layer-check.js";

let loaded: LayerCheck | undefined;

export async function loadLayerCheck(): Promise<LayerCheck> {
  loaded ??= (await import("./zod-layer-check.js")).zodLayerCheck;
  return loaded;
}

export function layerCheckNow(): LayerCheck {
  loaded ??= (
    createRequire(import.meta.url)("@pi-mcp-adapter/config/schemas") as { zodLayerCheck: LayerCheck }
  ).zodLayerCheck;
  return loaded;
}
