/**
 * Long-running soak: 200 connect/call/close cycles of real stdio servers
 * through the transport package must leave nothing behind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { ServerDefinitionSchema } from "@pi-mcp-adapter/core/schemas";
import { minimalServerPath, skipNotice } from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";

setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

/** Pids of live (non-zombie) processes whose parent is this process. */
function children(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === process.pid && fields[0] !== "Z") found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const handles = () =>
  process.getActiveResourcesInfo().filter((kind) => kind !== "Timeout" && kind !== "TTYWrap");

const skipped = skipNotice(
  "connect/call/close leak test",
  process.platform === "linux" ? undefined : "needs Linux (it counts child processes in /proc)",
);
describe.skipIf(skipped !== "")(`200 connect/call/close cycles${skipped}`, () => {
  it("leave no child process, no open handle, and no memory growth beyond noise", async () => {
    const server = ServerDefinitionSchema.parse({
      name: "mini",
      transport: "stdio",
      command: process.execPath,
      args: [minimalServerPath],
      source: { file: "test", key: "mini" },
    });
    const cycle = async (i: number) => {
      const connection = await connectServer(server);
      const result = await connection.callTool("echo", { text: `cycle ${i}` });
      expect(result.content).toEqual([{ type: "text", text: `cycle ${i}` }]);
      await connection.close();
    };
    const baseChildren = children();
    const baseHandles = handles().length;
    // Four lanes of sequential cycles keep the run short on a small machine.
    const lanes = async (from: number, to: number) =>
      Promise.all(
        [0, 1, 2, 3].map(async (lane) => {
          for (let i = from + lane; i < to; i += 4) await cycle(i);
        }),
      );
    await lanes(0, 20); // warm up lazy module state
    const heapBefore = heapAfterGc();
    await lanes(20, 200);
    expect(children()).toEqual(baseChildren);
    // Pipe handles of the last closed child are released on the next turns of the event loop.
    await expect.poll(() => handles().length).toBeLessThanOrEqual(baseHandles);
    const heapAfter = heapAfterGc();
    // 180 cycles; a leak of one connection's state (client, buffers, listeners) each would be several MB.
    expect(heapAfter - heapBefore).toBeLessThan(3 * 1024 * 1024);
  }, 180_000);
});
