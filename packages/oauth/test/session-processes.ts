/**
 * Runs sessions of `fixtures/refresh-session.mjs` as separate Node processes
 * sharing one encrypted-file credential store: all start, say "ready", and
 * go at once when the go file appears. Shared by the cross-process tests.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("./fixtures/refresh-session.mjs", import.meta.url));

export interface SessionRun {
  /** Holds the `oauth` store directory and the go files. */
  dir: string;
  url: string;
  mode: "connect" | "token-api" | "calls";
  count: number;
  env: NodeJS.ProcessEnv;
  /** Further arguments (the seconds of `calls`). */
  args?: string[];
}

export interface SessionResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the sessions, lets them go at once, and returns each one's exit code and output. */
export async function runSessions(run: SessionRun): Promise<SessionResult[]> {
  const go = path.join(run.dir, `go-${run.mode}`);
  const sessions = Array.from({ length: run.count }, () => {
    const argv = [script, run.mode, run.url, path.join(run.dir, "oauth"), go, ...(run.args ?? [])];
    const child = spawn(process.execPath, argv, { env: run.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const ready = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("ready")) resolve();
      }),
    );
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<SessionResult>((resolve) =>
      child.on("exit", (code) => resolve({ code, stdout, stderr })),
    );
    return { ready, exited };
  });
  await Promise.all(sessions.map((s) => s.ready));
  await writeFile(go, "");
  return Promise.all(sessions.map((s) => s.exited));
}
