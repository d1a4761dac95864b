/**
 * Target 3: a proxied call (`AdapterRuntime.call`: name resolution, approval
 * gate with nothing configured, output guard) against a bare SDK
 * `Client.callTool` to the same kind of fixture server: in-process (the
 * strictest case: no transport cost to hide behind), in-process beside the 38
 * catalog servers loaded from a warm cache (name resolution over 991 more
 * tools), and over stdio. Interleaved rounds so machine noise hits both alike.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import { connectInMemory, createFixtureServer, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { AdapterRuntime } from "pi-mcp-adapter";
import { stdioFixtureDefinition } from "../fixture-definition.js";
import { median } from "../transport/transport-measure.js";
import { createShellHome, loadCatalogServers } from "./shell-home.js";

const ROUNDS = 30;
const CALLS_PER_ROUND = 100;
/** The proxied path takes a few thousand calls to reach optimized code; measure after that. */
const WARMUP_ROUNDS = 40;

export type CallTransport = "in-process" | "in-process+38" | "stdio";

export interface ShellCallResult {
  transport: CallTransport;
  calls: number;
  bareMedianUs: number;
  /** `ServerConnection.callTool` alone: the transport's share. */
  connectionMedianUs: number;
  oursMedianUs: number;
  /** Median per-round difference proxied − bare. */
  addedUs: number;
  /** Median per-round difference proxied − connection: the shell's own share. */
  shellUs: number;
  ratio: number;
  /** This process's CPU time per call (median of rounds). */
  cpuUs: { bare: number; connection: number; proxied: number };
}

const ECHO = {
  name: "echo",
  description: "Echo the given text back unchanged.",
  inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] },
  handler: (args: Record<string, unknown>) => ({
    content: [{ type: "text" as const, text: String(args.text) }],
  }),
};

export async function measureShellCall(transport: CallTransport): Promise<ShellCallResult> {
  const definition = stdioFixtureDefinition();
  const home = transport === "in-process+38" ? await createShellHome(loadCatalogServers()) : undefined;
  const runtime = new AdapterRuntime({
    servers: [...(home?.definitions ?? []), definition],
    ...(home ? { catalog: { cache: new MetadataCache({ file: home.cacheFile }) } } : {}),
    connect:
      transport !== "stdio"
        ? async (d) =>
            connectServer(d, { transport: await connectInMemory(createFixtureServer({ tools: [ECHO] })) })
        : (d, signal) => connectServer(d, {}, signal),
  });
  const bare = new Client({ name: "bench", version: "1.0.0" });
  await bare.connect(
    transport !== "stdio"
      ? await connectInMemory(createFixtureServer({ tools: [ECHO] }))
      : new StdioClientTransport({ command: process.execPath, args: [stdioFixtureServerPath] }),
  );
  // The transport's share on its own: a ServerConnection of the same kind, outside the runtime.
  const connection = await connectServer(
    definition,
    transport !== "stdio" ? { transport: await connectInMemory(createFixtureServer({ tools: [ECHO] })) } : {},
  );
  const args = { text: "hello" };
  // The name a model calls after a search: prefixed, no server (so every server's catalog is consulted).
  const name = (await runtime.catalog.resolve("echo", "fixture")).prefixedName;
  const paths: Record<"bare" | "connection" | "proxied", () => Promise<unknown>> = {
    bare: () => bare.callTool({ name: "echo", arguments: args }),
    connection: () => connection.callTool("echo", args),
    proxied: async () => {
      const result = await runtime.call(name, args);
      if (result.isError) throw new Error(`proxied call failed: ${JSON.stringify(result.content)}`);
    },
  };
  type Path = keyof typeof paths;
  const wall: Record<Path, number[]> = { bare: [], connection: [], proxied: [] };
  const cpu: Record<Path, number[]> = { bare: [], connection: [], proxied: [] };
  // Wall time per call, and this process's CPU time per call (less sensitive to a loaded machine).
  const round = async (key: Path, record = true) => {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    for (let i = 0; i < CALLS_PER_ROUND; i++) await paths[key]();
    const used = process.cpuUsage(startCpu);
    if (!record) return;
    wall[key].push(((performance.now() - start) * 1000) / CALLS_PER_ROUND);
    cpu[key].push((used.user + used.system) / CALLS_PER_ROUND);
  };
  try {
    const keys = Object.keys(paths) as Path[];
    // Warm every path first (connect, listing, JIT).
    for (let r = 0; r < WARMUP_ROUNDS; r++) for (const key of keys) await round(key, false);
    for (let r = 0; r < ROUNDS; r++) {
      // Rotate the order so no path always runs first.
      for (let k = 0; k < keys.length; k++) await round(keys[(r + k) % keys.length]!);
    }
    const bareMedianUs = median(wall.bare);
    const oursMedianUs = median(wall.proxied);
    return {
      transport,
      calls: ROUNDS * CALLS_PER_ROUND,
      bareMedianUs,
      connectionMedianUs: median(wall.connection),
      oursMedianUs,
      // Per-round differences cancel the slow drift of a shared machine.
      addedUs: median(wall.proxied.map((us, i) => us - wall.bare[i]!)),
      shellUs: median(wall.proxied.map((us, i) => us - wall.connection[i]!)),
      ratio: oursMedianUs / bareMedianUs,
      cpuUs: { bare: median(cpu.bare), connection: median(cpu.connection), proxied: median(cpu.proxied) },
    };
  } finally {
    await runtime.shutdown();
    await connection.close();
    await bare.close();
    home?.close();
  }
}

export function formatShellCall(results: ShellCallResult[]): string {
  const cell = (v: number, w: number) => v.toFixed(0).padStart(w);
  return [
    "3. Proxied call (AdapterRuntime.call: resolve + approval + output guard) vs bare SDK Client.callTool",
    "   (µs/call, medians of rounds; connection = ServerConnection.callTool alone, the transport's share):",
    "   transport      calls   bare  connection  proxied  added  shell's own  ratio  target < 1.05",
    ...results.map(
      (r) =>
        `   ${r.transport.padEnd(13)}  ${String(r.calls).padStart(5)}  ${cell(r.bareMedianUs, 5)}  ${cell(r.connectionMedianUs, 10)}  ${cell(r.oursMedianUs, 7)}  ${cell(r.addedUs, 5)}  ${cell(r.shellUs, 11)}  ${r.ratio.toFixed(3)}  ${r.ratio < 1.05 ? "met" : "MISSED"}`,
    ),
    "   CPU time of this process per call (in-process rows include the server's work):",
    "   transport       bare  connection  proxied  ratio proxied/bare",
    ...results.map(
      (r) =>
        `   ${r.transport.padEnd(13)}  ${cell(r.cpuUs.bare, 5)}  ${cell(r.cpuUs.connection, 10)}  ${cell(r.cpuUs.proxied, 7)}  ${(r.cpuUs.proxied / r.cpuUs.bare).toFixed(3)}`,
    ),
  ].join("\n");
}
