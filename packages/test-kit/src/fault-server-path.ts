import { fileURLToPath } from "node:url";

/** Absolute path of the misbehaving stdio server script (`FAULT_MODE` selects the fault). */
export const faultServerPath = fileURLToPath(new URL("../fixtures/fault-server.mjs", import.meta.url));
