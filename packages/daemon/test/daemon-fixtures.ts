/**
 * What the daemon tests share: a private agent dir per test, SDK clients on
 * shared channels, the daemon started from the built entry (`npm run build`
 * runs before the tests), and a liveness check that does not count zombies
 * (processes the daemon left are reparented to an init that may reap late).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createTempDir, serverEverythingPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach } from "vitest";
import {
  daemonStatus,
  type OpenSharedOptions,
  openSharedServer,
  type SharedServerChannel,
  type SharedSpawnSpec,
  stopDaemon,
} from "../src/index.js";

export const builtDaemon = {
  command: process.execPath,
  args: [fileURLToPath(new URL("../dist/daemon/daemon-main.js", import.meta.url))],
};

/** server-everything over stdio, as a session would spawn it. */
export function everythingSpec(env: Record<string, string> = {}): SharedSpawnSpec {
  return {
    command: process.execPath,
    args: [serverEverythingPath],
    env: { PATH: process.env.PATH ?? "", ...env },
  };
}

/**
 * server-everything started through `sh`, which first leaves a `sleep` in the
 * server's process group that ignores stdin and writes its pid to `pidFile`:
 * a process only a group kill ends (server-everything itself exits when its
 * stdin closes, so it alone cannot show that nothing is left behind).
 */
export function everythingWithGrandchild(pidFile: string): SharedSpawnSpec {
  const script = `sleep 100000 </dev/null & echo $! > '${pidFile}'; exec '${process.execPath}' '${serverEverythingPath}'`;
  return { command: "/bin/sh", args: ["-c", script], env: { PATH: process.env.PATH ?? "" } };
}

export interface Session {
  client: Client;
  channel: SharedServerChannel;
  /** Elicitation requests this session's client received. */
  elicitations: string[];
  closed: Promise<void>;
}

/**
 * Opens a channel and puts an SDK client on it (declaring elicitation, which
 * it accepts with `{ name: <label> }`).
 */
export async function openSession(
  agentDir: string,
  label: string,
  options: Partial<OpenSharedOptions> = {},
): Promise<Session> {
  const channel = await openSharedServer({
    agentDir,
    spec: everythingSpec(),
    serverName: "everything",
    clientKey: "elicitation",
    daemonCommand: builtDaemon,
    ...options,
  });
  const closed = new Promise<void>((resolve) => {
    const previous = channel.onclose;
    channel.onclose = () => {
      previous?.();
      resolve();
    };
  });
  const client = new Client({ name: label, version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const elicitations: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push(request.params.message);
    return { action: "accept", content: { name: label, check: true } };
  });
  await client.connect(channel);
  return { client, channel, elicitations, closed };
}

/** A fresh agent dir for each test of the calling file; after each test its daemon is stopped and the dir removed. */
export function agentDirPerTest(): { readonly path: string; join(...parts: string[]): string } {
  let dir: TempDir | undefined;
  beforeEach(async () => {
    dir = await createTempDir("pi-mcp-daemon-");
  });
  afterEach(async () => {
    if (!dir) return;
    await stopDaemon(dir.path).catch(() => false);
    await dir.remove();
  });
  const current = () => {
    if (!dir) throw new Error("agentDirPerTest: used outside a test");
    return dir;
  };
  return {
    get path() {
      return current().path;
    },
    join: (...parts) => current().join(...parts),
  };
}

/** Alive and not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/** The text of a tool result's first content block. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? "";
}

export { daemonStatus, stopDaemon };
