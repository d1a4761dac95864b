/**
 * How a stdio server's process is started: through `cross-spawn`, as the MCP
 * SDK does. On POSIX it is Node's own `spawn`; on Windows it finds commands
 * through PATH and PATHEXT and runs `.cmd`/`.bat` shims (`npx.cmd`, the
 * `node_modules/.bin/*.cmd` the npx resolver finds) through `cmd.exe` with
 * their arguments escaped, which Node's `spawn` refuses to do.
 */

import type { spawn as nodeSpawn } from "node:child_process";
import crossSpawn from "cross-spawn";

/** How a stdio server process is started (Node's `spawn` signature). */
export type SpawnFn = typeof nodeSpawn;

export const spawnProcess: SpawnFn = crossSpawn as unknown as SpawnFn;
