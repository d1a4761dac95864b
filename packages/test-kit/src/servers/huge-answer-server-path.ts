/** Where the stdio server with answers of any size lives (run it with `node`). */
import { fileURLToPath } from "node:url";

/** A dependency-free stdio server: `huge {mib}` answers that many MiB; `HUGE_LIST_MIB` sizes its tool list. */
export const hugeAnswerServerPath = fileURLToPath(
  new URL("../../fixtures/huge-answer-server.mjs", import.meta.url),
);
