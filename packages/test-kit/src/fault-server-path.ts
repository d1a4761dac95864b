import { fileURLToPath } from "node:url";

/** Absolute path of the misbehaving stdio server script (`FAULT_MODE` selects the fault). */
export const faultServerPath = fileURLToPath(new URL("../fixtures/fault-server.mjs", import.meta.url));

/** Absolute path of a dependency-free stdio server that starts in milliseconds (tool: echo). */
export const minimalServerPath = fileURLToPath(
  new URL("../fixtures/minimal-stdio-server.mjs", import.meta.url),
);
