/**
 * How a stdio server's process is started: through `cross-spawn`, as the MCP
 * SDK does. On POSIX it is Node's own `spawn`; on Windows it finds commands
 * through PATH and PATHEXT and runs `.cmd`/`.bat` shims (`npx.cmd`, the
 * `node_modules/.bin/*.cmd` the npx resolver finds) through `cmd.exe` with
 * their arguments escaped, which Node's `spawn` refuses to do. Loaded when
 * the first process starts: a session that starts none (a search from the
 * metadata cache) never loads it.
 */

import type { spawn as nodeSpawn } from "node:child_process";
import { createRequire } from "node:module";

/** How a stdio server process is started (Node's `spawn` signature). */
export type SpawnFn = typeof nodeSpawn;

const load = createRequire(import.meta.url);
let crossSpawn: SpawnFn | undefined;

/** `cross-spawn`, loaded (synchronously, it is CommonJS) by the first process started, not with the package. */
export const spawnProcess = ((...args: Parameters<SpawnFn>) => {
  crossSpawn ??= load("cross-spawn") as SpawnFn;
  return crossSpawn(...args);
}) as SpawnFn;
