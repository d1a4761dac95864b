/**
 * Small pieces the e2e tests share: the stdio fixture server as a config
 * entry, the setting headless runs need for project servers, and a blocking
 * sleep for scripted-model steps that must hold their answer.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";

/** An `mcpServers` entry for the stdio fixture server, recording its pid in `pidDir`. */
export function stdioFixtureEntry(pidDir: string, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [stdioFixtureServerPath],
    env: { FIXTURE_PID_DIR: pidDir },
    ...extra,
  };
}

/**
 * Headless runs admit project servers only with this user-global setting
 * (see the config package README); writes it as the agent dir's only adapter config.
 */
export function allowHeadlessProjectServers(agentDir: string): Promise<void> {
  return writeFile(
    path.join(agentDir, "mcp-adapter.json"),
    JSON.stringify({ settings: { projectServers: "allow" } }),
  );
}

/** Blocks this thread, e.g. so the scripted model answers only afterwards. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
