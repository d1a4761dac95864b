#!/usr/bin/env node
/**
 * The daemon process: `pi-mcp-daemon --dir <agentDir>/mcp-daemon`. Sessions
 * start it through `openSharedServer`; it exits by itself once it has had no
 * server and no session for `PI_MCP_DAEMON_EXIT_MS` (default 60 s).
 */
import { runDaemon } from "./run-daemon.js";

await runDaemon(process.argv.slice(2), process.env);
