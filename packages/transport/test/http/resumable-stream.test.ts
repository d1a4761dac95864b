import {
  createFixtureServer,
  type FaultProxy,
  gate,
  type ResumableHttpFixture,
  serveResumableHttp,
  startFaultProxy,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition } from "../helpers.js";

let upstream: ResumableHttpFixture | undefined;
let proxy: FaultProxy | undefined;
let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  await proxy?.close();
  await upstream?.close();
  open = proxy = upstream = undefined;
});

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("a Streamable HTTP answer whose stream drops mid-response", () => {
  for (const protocol of ["legacy", "auto"] as const) {
    it(`resumes with Last-Event-ID and the call completes, run once (protocol ${protocol})`, async () => {
      const finish = gate();
      let runs = 0;
      upstream = await serveResumableHttp(() =>
        createFixtureServer({
          tools: [
            {
              name: "report",
              handler: async (_args, extra) => {
                runs++;
                if (extra.progressToken !== undefined) {
                  await extra.sendNotification({
                    method: "notifications/progress",
                    params: {
                      progressToken: extra.progressToken,
                      progress: 1,
                      total: 2,
                      message: "half way",
                    },
                  });
                }
                await finish.opened;
                return { content: [{ type: "text", text: "the whole report" }] };
              },
            },
          ],
        }),
      );
      const cutting = await startFaultProxy(upstream.url);
      proxy = cutting;
      open = await connectServer(
        definition({ name: "reports", transport: "http", url: cutting.url, protocol }),
      );
      cutting.fail("tools/call", { cutAfterProgress: true });
      const progress: string[] = [];
      const call = open.callTool("report", {}, { onProgress: (p) => progress.push(p.message ?? "") });
      // The tool finishes only after the proxy has cut its answer's stream.
      await until(() => cutting.requests.some((r) => r.outcome === "cut"), "the cut");
      finish.open();
      expect(await call).toMatchObject({ content: [{ type: "text", text: "the whole report" }] });
      expect(progress).toEqual(["half way"]);
      expect(runs).toBe(1);
      expect(cutting.requests.filter((r) => r.rpc === "tools/call")).toHaveLength(1);
      const resumed = cutting.requests.find((r) => r.http === "GET" && r.lastEventId !== undefined);
      expect(resumed?.lastEventId).toBe(upstream.resumedFrom[0]);
    });
  }
});
