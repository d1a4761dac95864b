/**
 * Listeners written for the reference adapter's documented status channel
 * `pi-mcp-adapter/status/v1` hear us too: a second extension listening only
 * there gets version-1 snapshots with each server's direct tool count, and the
 * empty snapshot at shutdown.
 */
import { readFile, writeFile } from "node:fs/promises";
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import type { McpStatusSnapshotV1 } from "pi-mcp-adapter";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("emits version-1 snapshots with directToolCount on pi-mcp-adapter/status/v1", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: {
          everything: { command: process.execPath, args: [serverEverythingPath], directTools: ["get-sum"] },
        },
      },
      steps: [{ toolCall: { name: "everything_get_sum", arguments: { a: 1, b: 2 } } }, { text: "3" }],
    });
    const log = project.join("v1.jsonl");
    const listener = project.join("v1-listener.ts");
    await writeFile(
      listener,
      `import { appendFileSync } from "node:fs";
export default function (pi: any) {
  pi.events.on("pi-mcp-adapter/status/v1", (snapshot: unknown) => {
    appendFileSync(${JSON.stringify(log)}, JSON.stringify(snapshot) + "\\n");
  });
}
`,
    );

    const run = await project.run("1 + 2?", { extraArgs: ["-e", listener] });
    expect(run.code, run.stderr).toBe(0);
    const snapshots = (await readFile(log, "utf8"))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as McpStatusSnapshotV1);
    // The last connected one: the server connects first, then its listing registers the direct tool.
    const connected = snapshots.filter((s) => s.connectedCount === 1).at(-1);
    expect(connected?.version).toBe(1);
    expect(connected?.servers).toEqual([
      expect.objectContaining({
        name: "everything",
        status: "connected",
        directToolCount: 1,
        disabled: false,
      }),
    ]);
    expect(connected?.servers[0]?.toolCount).toBeGreaterThan(1);
    expect(
      snapshots.every((s) => s.servers.every((server) => server.status !== ("connecting" as string))),
    ).toBe(true);
    expect(snapshots.at(-1)).toEqual({
      version: 1,
      servers: [],
      totalTools: 0,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 0,
    });
  });
});
