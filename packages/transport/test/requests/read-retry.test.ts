import {
  createFixtureServer,
  type FaultProxy,
  type HttpFixture,
  serveStreamableHttp,
  startFaultProxy,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition } from "../helpers.js";

let upstream: HttpFixture;
let proxy: FaultProxy;
let open: ServerConnection | undefined;
/** The waits the retries asked for, in order; the injected sleep returns at once. */
let slept: number[];
let calls: number;

beforeEach(async () => {
  calls = 0;
  upstream = await serveStreamableHttp(() =>
    createFixtureServer({
      tools: [
        {
          name: "charge",
          handler: () => {
            calls++;
            return { content: [{ type: "text", text: "charged" }] };
          },
        },
      ],
    }),
  );
  proxy = await startFaultProxy(upstream.url);
  slept = [];
});
afterEach(async () => {
  await open?.close();
  open = undefined;
  await proxy.close();
  await upstream.close();
});

async function connect(protocol: "legacy" | "auto" = "legacy") {
  open = await connectServer(definition({ name: "flaky", transport: "http", url: proxy.url, protocol }), {
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return open;
}

const outcomes = (rpc: string) => proxy.requests.filter((r) => r.rpc === rpc).map((r) => r.outcome);

describe("reads that meet a transient failure", () => {
  for (const protocol of ["legacy", "auto"] as const) {
    it(`are sent again after a backoff, or after the server's Retry-After (protocol ${protocol})`, async () => {
      const connection = await connect(protocol);
      proxy.fail("tools/list", { status: 503 }, { status: 429, headers: { "retry-after": "3" } });
      expect((await connection.listTools()).map((t) => t.name)).toEqual(["charge"]);
      expect(outcomes("tools/list")).toEqual([503, 429, 200]);
      expect(slept).toEqual([250, 3000]);
    });
  }

  it("cap a long Retry-After at 10 s and read an HTTP-date one", async () => {
    const connection = await connect();
    const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
    proxy.fail(
      "tools/list",
      { status: 429, headers: { "retry-after": "600" } },
      { status: 408, headers: { "retry-after": inFiveSeconds } },
    );
    await connection.listTools();
    expect(slept[0]).toBe(10_000);
    expect(slept[1]).toBeGreaterThan(3_000);
    expect(slept[1]).toBeLessThanOrEqual(5_000);
  });

  it("are sent again after a dropped connection", async () => {
    const connection = await connect();
    proxy.fail("ping", { drop: true });
    await connection.ping();
    expect(outcomes("ping")).toEqual(["dropped", 200]);
    expect(slept).toEqual([250]);
  });

  it("give up after two retries with the server's answer", async () => {
    const connection = await connect();
    proxy.fail("tools/list", { status: 502 }, { status: 503 }, { status: 504, body: "gateway timeout" });
    await expect(connection.listTools()).rejects.toThrow(/^flaky: tools\/list failed: .*gateway timeout/);
    expect(outcomes("tools/list")).toEqual([502, 503, 504]);
    expect(slept).toEqual([250, 1000]);
  });

  it("do not include answers that are not transient (a 400 goes straight back)", async () => {
    const connection = await connect();
    proxy.fail("tools/list", { status: 400, body: "bad request" });
    await expect(connection.listTools()).rejects.toThrow(/bad request/);
    expect(outcomes("tools/list")).toEqual([400]);
  });
});

describe("tool calls that meet a transient failure", () => {
  it("are never sent again, and the error says the call may or may not have run", async () => {
    const connection = await connect();
    proxy.fail("tools/call", { status: 503, body: "busy" }, { drop: true });
    const notRetried = /the call was not retried, because it may or may not have run on the server$/;
    await expect(connection.callTool("charge", {})).rejects.toThrow(notRetried);
    await expect(connection.callTool("charge", {})).rejects.toThrow(notRetried);
    expect(outcomes("tools/call")).toEqual([503, "dropped"]);
    expect(slept).toEqual([]);
    expect(calls).toBe(0);
    expect(await connection.callTool("charge", {})).toMatchObject({ content: [{ text: "charged" }] });
    expect(calls).toBe(1);
  });
});
