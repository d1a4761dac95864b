/**
 * One session of the shared-servers benchmark, in a process of its own: a
 * runtime (as Pi's extension builds it) with `BENCH_SERVERS` stdio
 * server-everything definitions, each told apart by `BENCH_SERVER=<i>`, with
 * `shareServers` from `BENCH_SHARE`. It calls every server once (so each is
 * connected), the first two alone and timed, prints "ready <first call ms>
 * <second server's first call ms>", and shuts down when stdin closes.
 */

import { createRuntime } from "@pi-mcp-adapter/runtime";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";

const count = Number(process.env.BENCH_SERVERS ?? 10);
const mcpServers: Record<string, unknown> = {};
for (let i = 0; i < count; i++) {
  mcpServers[`s${i}`] = {
    command: process.execPath,
    args: [serverEverythingPath],
    env: { BENCH_SERVER: String(i), BENCH_MARK: process.env.BENCH_MARK ?? "" },
  };
}
const runtime = await createRuntime({
  cwd: process.cwd(),
  config: { settings: { shareServers: process.env.BENCH_SHARE === "1", idleTimeout: 60 }, mcpServers },
  metadataCacheFile: false,
  serverLogFile: false,
  npxCacheFile: false,
});
// The first call alone and timed (the session's client code loads with it), then a second server's first call
// alone (the code loaded: what reaching one more server costs), then the rest.
const [first, second, ...rest] = Object.keys(mcpServers);
const timedCall = async (name: string | undefined) => {
  if (name === undefined) return Number.NaN;
  const started = performance.now();
  await runtime.call(`${name}_echo`, { message: name });
  return performance.now() - started;
};
const firstCallMs = await timedCall(first);
const secondServerMs = await timedCall(second);
await Promise.all(rest.map((name) => runtime.call(`${name}_echo`, { message: name })));
process.stdout.write(`ready ${firstCallMs.toFixed(1)} ${secondServerMs.toFixed(1)}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await runtime.shutdown();
  process.exit(0);
});
