import { connect } from "node:net";
import { createFixtureServer, serveSdkHttp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { AdapterRuntime } from "../../src/index.js";
import { connectWith, stdioDefinition } from "../definitions.js";

describe("a remote server restarted with other tools", () => {
  it("renews its session on the next call, and the catalog and search follow the new tool list", async () => {
    const first = await serveSdkHttp(() => createFixtureServer({ tools: [{ name: "old_report" }] }));
    const url = first.url;
    let second: Awaited<ReturnType<typeof serveSdkHttp>> | undefined;
    const runtime = new AdapterRuntime({
      servers: [stdioDefinition("deploy", { transport: "http", url, command: undefined })],
      connect: connectWith(),
    });
    const reasons: string[] = [];
    runtime.listings.onChange((server, reason) => reasons.push(`${server}:${reason}`));
    try {
      expect((await runtime.catalog.view()).tools.map((t) => t.prefixedName)).toEqual(["deploy_old_report"]);
      await runtime.call("deploy_old_report", {});
      await first.close();
      // A restart is not instant: the server is seen gone (connections refused) before it is back.
      await refused(first.port);
      second = await serveSdkHttp(
        () =>
          createFixtureServer({
            tools: [{ name: "old_report" }, { name: "rollback", description: "Roll back the last deploy" }],
          }),
        { port: first.port },
      );
      // The restarted server knows no session: the call opens a new one and runs there.
      const result = await runtime.call("deploy_old_report", { n: 1 });
      expect(JSON.stringify(result)).toContain('{\\"n\\":1}');
      await runtime.listings.settled();
      expect((await runtime.catalog.view()).tools.map((t) => t.prefixedName)).toEqual([
        "deploy_old_report",
        "deploy_rollback",
      ]);
      expect((await runtime.catalog.search("roll back deploy")).hits[0]?.tool.prefixedName).toBe(
        "deploy_rollback",
      );
      expect(reasons).toContain("deploy:list_changed");
    } finally {
      await runtime.shutdown();
      await second?.close();
    }
  });
});

/** Resolves once a TCP connection to `port` on 127.0.0.1 is refused. */
async function refused(port: number): Promise<void> {
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (!accepted) return;
  }
}
