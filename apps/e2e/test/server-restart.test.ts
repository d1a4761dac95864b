/**
 * A remote server that restarts in the middle of a Pi run, on both Pi lines:
 * the published server-everything over Streamable HTTP answers a first call
 * through `mcp`, is then stopped and started again on the same port (it
 * forgets every session), and the model's next call through `mcp` succeeds.
 * The model waits for the restart with Pi's own bash tool, which polls for a
 * marker file the test writes once the new server answers.
 */
import { writeFile } from "node:fs/promises";
import { type ServerEverythingHttp, startServerEverything, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { piHosts } from "../src/pi-hosts.js";
import { createPiProject } from "../src/pi-project.js";

let server: ServerEverythingHttp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echo = (message: string) => ({
  toolCall: { name: "mcp", arguments: { tool: "everything_echo", args: { message } } },
});

describe.each(piHosts())("$label", (host) => {
  it("a call after server-everything restarted at the same URL succeeds", async () => {
    server = await startServerEverything("streamableHttp");
    let restarted: Promise<void> | undefined;
    const restart = async (marker: string) => {
      const old = server as ServerEverythingHttp;
      await old.close();
      server = await startServerEverything("streamableHttp", { port: old.port });
      await writeFile(marker, "up");
    };
    await using project = await createPiProject({
      host,
      adapterConfig: { mcpServers: { everything: { url: server.url } } },
      steps: [
        echo("before the restart"),
        () => {
          const marker = project.join("restarted");
          restarted = restart(marker);
          const command = `until [ -f '${marker}' ]; do sleep 0.05; done; echo server is back`;
          return { toolCall: { name: "bash", arguments: { command } } };
        },
        echo("after the restart"),
        { text: "Done." },
      ],
    });
    const run = await project.run("Echo twice; the server restarts in between.");
    await restarted;
    expect(run.code, run.stderr).toBe(0);
    const results = toolResultTexts(project.model.requests[3]!);
    expect(results[0]).toContain("Echo: before the restart");
    expect(results[1]).toContain("server is back");
    expect(results[2]).toContain("Echo: after the restart");
    expect(results[2]).not.toMatch(/session|error/i);
  });
});
