/**
 * Small pieces the e2e tests share: the stdio fixture server, the skills
 * fixture server and server-everything (pid-recording wrapper) as config entries, and a
 * blocking sleep for scripted-model steps that must hold their answer. The project set-up itself is `createPiProject` (pi-project.ts).
 */
import {
  serverEverythingPath,
  skillsFixtureServerPath,
  stdioFixtureServerPath,
} from "@pi-mcp-adapter/test-kit";

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
 * An `mcpServers` entry for the skills fixture server serving the skill folders in
 * `<root>/skills`, logging each skill request to `<root>/requests.log`; `env` adds to its environment.
 */
export function skillsFixtureEntry(
  root: { join(...parts: string[]): string },
  env: Record<string, string> = {},
) {
  return {
    command: process.execPath,
    args: [skillsFixtureServerPath, root.join("skills")],
    env: { SKILLS_FIXTURE_LOG: root.join("requests.log"), ...env },
  };
}

/** Blocks this thread, e.g. so the scripted model answers only afterwards. */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A script that runs server-everything on stdio and records each start as a
 * file named by its pid in `FIXTURE_PID_DIR` (for `recordedPids`); with
 * `FIXTURE_CALL_MARKER` set, it writes that file when a `tools/call` arrives.
 */
export function everythingWrapperScript(): string {
  return `
import { writeFileSync } from "node:fs";
import path from "node:path";
writeFileSync(path.join(process.env.FIXTURE_PID_DIR, String(process.pid)), "");
process.argv.splice(2, process.argv.length, "stdio");
await import(${JSON.stringify(serverEverythingPath)});
// Listened to only now: a listener before the server's own would let stdin flow with nobody reading it.
const marker = process.env.FIXTURE_CALL_MARKER;
if (marker) process.stdin.on("data", (chunk) => String(chunk).includes('"tools/call"') && writeFileSync(marker, ""));
`;
}

/**
 * An `mcpServers` entry for server-everything on stdio through the wrapper
 * at `<root>/everything.mjs` (write `everythingWrapperScript()` there),
 * recording each start in `pidDir`.
 */
export function everythingPidEntry(
  paths: { join: (...parts: string[]) => string; pidDir: string },
  extra: Record<string, unknown> = {},
) {
  return {
    command: process.execPath,
    args: [paths.join("everything.mjs")],
    env: { FIXTURE_PID_DIR: paths.pidDir },
    ...extra,
  };
}
