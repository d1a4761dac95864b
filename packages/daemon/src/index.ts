/**
 * @pi-mcp-adapter/daemon — one stdio MCP server process for many sessions.
 *
 * Public API: any export added here becomes public. The daemon process
 * itself runs `daemon/daemon-main.ts` (the `pi-mcp-daemon` bin).
 */
export { daemonStatus, openSharedServer, stopDaemon } from "./client/open-shared-server.js";
export { daemonEntryPath } from "./client/start-daemon.js";
export { type DaemonPaths, daemonPaths, sharingSupport } from "./daemon-paths.js";
export { DaemonError, type DaemonErrorCode } from "./errors.js";
export { SHARED_SERVER_ENV_NAMES, sharedServerEnv } from "./shared-server-env.js";
export type {
  DaemonServerStatus,
  DaemonStatus,
  OpenSharedOptions,
  SharedAttachment,
  SharedChannelEnd,
  SharedServerChannel,
  SharedSpawnSpec,
} from "./types.js";
