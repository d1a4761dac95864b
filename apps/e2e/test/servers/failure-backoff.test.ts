/**
 * Failure backoff through the real Pi CLI: a server that dies in
 * `initialize` is started once; the model's next call to it is told at once
 * that it is unavailable (and why) without a second process, `mcp({})`
 * shows when it is tried next, and `mcp({connect})` starts it again at once.
 * Process counts come from the pid files the fixture writes.
 */
import { faultServerPath, recordedPids, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("does not restart a server that just failed, says why, and retries on mcp({connect})", async () => {
    const call = (args: Record<string, unknown>) => ({ toolCall: { name: "mcp", arguments: args } });
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({
        db: {
          command: process.execPath,
          args: [faultServerPath],
          env: { FAULT_MODE: "exit-on-initialize", FIXTURE_PID_DIR: pidDir },
        },
      }),
      allowProjectServers: true,
      steps: [
        call({ tool: "db_echo", args: { text: "hi" } }),
        call({ tool: "db_echo", args: { text: "hi" } }),
        call({}),
        call({ connect: "db" }),
        { text: "Done." },
      ],
    });

    const run = await project.run("Query the database.");

    expect(run.code, run.stderr).toBe(0);
    const result = (step: number) => toolResultTexts(project.model.requests[step]!).at(-1) ?? "";
    expect(result(1)).toContain("fatal: cannot open database");
    expect(result(2)).toMatch(
      /^server "db" is unavailable \(last failed \d+ s ago: .*fatal: cannot open database.*\); next try in \d+ s, or reconnect "db" to try now$/m,
    );
    expect(result(3)).toMatch(
      /^- db: failed \d+s ago: .*fatal: cannot open database.* \(next try in \d+s\)$/m,
    );
    expect(result(4)).toContain("fatal: cannot open database");
    // The first call and the explicit connect started it; the refused call and the status did not.
    expect(await recordedPids(project.pidDir)).toHaveLength(2);
  });
});
