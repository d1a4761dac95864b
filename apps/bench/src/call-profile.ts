/**
 * A CPU profile of the proxied call path: N calls of the fixture server's
 * `echo` over stdio through `AdapterRuntime.call`, the same set-up as
 * `shell-call-overhead.ts`, and nothing else in the process, so the profile
 * shows where a call's own time goes. Prints the functions with the most
 * self time (idle and the server process excluded).
 *
 *   node --import tsx src/call-profile.ts [calls] [--path proxied|connection|bare]
 */
import { Session } from "node:inspector/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { AdapterRuntime } from "pi-mcp-adapter";
import type { Profile } from "./cpu-profile-summary.js";
import { stdioFixtureDefinition } from "./fixture-definition.js";

export type ProfiledPath = "proxied" | "connection" | "bare";

export interface SelfTime {
  fn: string;
  ms: number;
  share: number;
}

/** Runs `calls` calls on one path under the V8 sampling profiler; top functions by self time. */
export async function profileCalls(path: ProfiledPath, calls = 20_000, top = 20): Promise<SelfTime[]> {
  const definition = stdioFixtureDefinition();
  const args = { text: "hello" };
  let call: () => Promise<unknown>;
  let close: () => Promise<void>;
  if (path === "proxied") {
    const runtime = new AdapterRuntime({
      servers: [definition],
      connect: (d, signal) => connectServer(d, {}, signal),
    });
    const name = (await runtime.catalog.resolve("echo", "fixture")).prefixedName;
    call = () => runtime.call(name, args);
    close = () => runtime.shutdown();
  } else if (path === "connection") {
    const connection = await connectServer(definition);
    call = () => connection.callTool("echo", args);
    close = () => connection.close();
  } else {
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath] }),
    );
    call = () => client.callTool({ name: "echo", arguments: args });
    close = () => client.close();
  }
  for (let i = 0; i < 2000; i++) await call(); // reach optimized code first
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  for (let i = 0; i < calls; i++) await call();
  const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
  session.disconnect();
  await close();
  return topSelfTime(profile, top);
}

function topSelfTime(profile: Profile, top: number): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") return;
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const url = node.callFrame.url
      .replace(/^.*node_modules\//, "")
      .replace(/^.*\/packages\//, "")
      .replace(/^file:\/\//, "");
    const key = `${node.callFrame.functionName || "(anonymous)"} ${url ? `${url}:${node.callFrame.lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, us]) => ({ fn, ms: us / 1000, share: us / total }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const calls = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20_000);
  const pathArg = process.argv[process.argv.indexOf("--path") + 1];
  const path: ProfiledPath = process.argv.includes("--path") ? (pathArg as ProfiledPath) : "proxied";
  const rows = await profileCalls(path, calls);
  console.log(`Self time over ${calls} ${path} calls (stdio echo), busy samples only:`);
  for (const row of rows)
    console.log(
      `  ${row.ms.toFixed(1).padStart(8)} ms  ${(row.share * 100).toFixed(1).padStart(5)} %  ${row.fn}`,
    );
}
