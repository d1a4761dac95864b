/**
 * What the stdio server's own session costs a call. Our `ProcessTransport`
 * spawns each server `detached` (setsid: its own session and process group)
 * so closing it can end the whole process tree, and so the terminal's signals
 * never reach it. Linux's autogroup scheduler gives every session its own
 * group, so each request wakes a process in another group. This runs the
 * same echo call three ways, interleaved: the bare SDK client (server in our
 * session), `connectServer` as shipped (own session), and `connectServer`
 * with the server spawned in our session — the difference between the last
 * two is the scheduling cost, not per-call work of ours.
 *
 *   node --import tsx src/stdio-own-session.ts
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer, ProcessTransport, type SpawnFn } from "@pi-mcp-adapter/transport";
import { stdioFixtureDefinition } from "./fixture-definition.js";
import { median } from "./transport/transport-measure.js";

export interface OwnSessionResult {
  /** Median µs per call. */
  bare: number;
  ownSession: number;
  sameSession: number;
}

export async function measureOwnSession(rounds = 40, callsPerRound = 100): Promise<OwnSessionResult> {
  const definition = stdioFixtureDefinition();
  const sameSessionSpawn = ((command: string, args: string[], options: object) =>
    spawn(command, args, { ...options, detached: false })) as unknown as SpawnFn;
  const ownSession = await connectServer(definition);
  const sameSession = await connectServer(definition, {
    transport: new ProcessTransport({
      command: process.execPath,
      args: [stdioFixtureServerPath],
      spawn: sameSessionSpawn,
    }),
  });
  const bare = new Client({ name: "bench", version: "1.0.0" });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath] }));
  const args = { text: "hello" };
  const paths = {
    bare: () => bare.callTool({ name: "echo", arguments: args }),
    ownSession: () => ownSession.callTool("echo", args),
    sameSession: () => sameSession.callTool("echo", args),
  };
  const times: Record<keyof typeof paths, number[]> = { bare: [], ownSession: [], sameSession: [] };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const key of Object.keys(paths) as (keyof typeof paths)[]) {
        const start = performance.now();
        for (let i = 0; i < callsPerRound; i++) await paths[key]();
        // The first rounds warm up connections and JIT.
        if (r >= 10) times[key].push(((performance.now() - start) * 1000) / callsPerRound);
      }
    }
  } finally {
    await Promise.all([ownSession.close(), sameSession.close(), bare.close()]);
  }
  return {
    bare: median(times.bare),
    ownSession: median(times.ownSession),
    sameSession: median(times.sameSession),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await measureOwnSession();
  console.log("stdio echo, µs per call (median of rounds):");
  console.log(`  bare SDK client (server in our session):      ${r.bare.toFixed(1)}`);
  console.log(`  connectServer as shipped (server's own session): ${r.ownSession.toFixed(1)}`);
  console.log(`  connectServer, server spawned in our session:  ${r.sameSession.toFixed(1)}`);
}
