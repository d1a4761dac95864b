import { fileURLToPath } from "node:url";

/** Absolute path of the misbehaving stdio server script (`FAULT_MODE` selects the fault). */
export const faultServerPath = fileURLToPath(new URL("../../fixtures/fault-server.mjs", import.meta.url));

/** Absolute path of a dependency-free stdio server that starts in milliseconds (tool: echo). */
export const minimalServerPath = fileURLToPath(
  new URL("../../fixtures/minimal-stdio-server.mjs", import.meta.url),
);

/**
 * Absolute path of a stdio server that is hostile on purpose (`HOSTILE_MODE`:
 * `hang-initialize`, `flood-list-changed`, `spam-elicitation`; see the script's header).
 */
export const hostileServerPath = fileURLToPath(new URL("../../fixtures/hostile-server.mjs", import.meta.url));
