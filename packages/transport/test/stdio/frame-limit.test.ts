import { hugeAnswerServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const hugeServer = (env: Record<string, string> = {}) =>
  definition({
    name: "big",
    transport: "stdio",
    command: process.execPath,
    args: [hugeAnswerServerPath],
    env,
    // Far beyond the test's own time: a request that waited for its timeout would fail the test, not pass it.
    requestTimeoutMs: 600_000,
  });

const textLength = (result: { content: unknown }) =>
  ((result.content as { text: string }[])[0]?.text ?? "").length;

describe("stdio message bounds", () => {
  it("accepts answers far over the old 10 MiB bound: a 15 MiB tool list and a 20 MiB result", async () => {
    open = await connectServer(hugeServer({ HUGE_LIST_MIB: "15" }));
    const tools = await open.listTools();
    expect(tools.map((t) => t.name)).toContain("padded_14");
    expect(textLength(await open.callTool("huge", { mib: 20 }))).toBe(20 * 1024 * 1024);
  });

  it("fails a 70 MiB answer at once with its size and the 64 MiB default limit, and keeps the connection", async () => {
    open = await connectServer(hugeServer());
    await expect(open.callTool("huge", { mib: 70 })).rejects.toThrow(
      'big: tools/call huge failed: MCP error -32603: answer too large: 70 MiB from server "big" (limit 64 MiB)',
    );
    expect(open.closed).toBe(false);
    expect(await open.callTool("echo", { text: "still here" })).toMatchObject({
      content: [{ type: "text", text: "still here" }],
    });
  });

  it("takes its limit from maxFrameBytes, and fails only the request the answer was for", async () => {
    open = await connectServer(hugeServer(), { maxFrameBytes: 2 * 1024 * 1024 });
    const [tooBig, small] = await Promise.allSettled([
      open.callTool("huge", { mib: 3 }),
      open.callTool("huge", { mib: 1 }),
    ]);
    expect(tooBig).toMatchObject({
      status: "rejected",
      reason: { message: expect.stringContaining('answer too large: 3 MiB from server "big" (limit 2 MiB)') },
    });
    expect(small.status === "fulfilled" && textLength(small.value)).toBe(1024 * 1024);
  });
});
