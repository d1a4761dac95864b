/**
 * A server whose first listing is slow (here `initialize` answers only after
 * 7 s, like a first `npx` run on a busy machine), through the real Pi CLI on
 * both lines: the model's first call of one of its own tools waits for it and
 * succeeds — it is never told there is no such tool, as it was once another
 * server had answered and 5 s (the wait for late listings of a search) had
 * passed. The delay has to outlast that wait, which Pi cannot shorten.
 */
import { faultServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const mcp = (args: Record<string, unknown>) => ({ toolCall: { name: "mcp", arguments: args } });

describe.each(piHosts())("$label", (host) => {
  it("a call of a slow server's own tool waits for its first listing", async () => {
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({
        fast: stdioFixtureEntry(pidDir),
        slow: {
          command: process.execPath,
          args: [faultServerPath],
          env: { FAULT_MODE: "slow-initialize", FAULT_DELAY_MS: "7000" },
        },
      }),
      allowProjectServers: true,
      steps: [mcp({ tool: "slow_echo", args: { text: "slow but there" } }), { text: "Done." }],
    });

    const run = await project.run("Echo through the slow server.");

    expect(run.code, run.stderr).toBe(0);
    expect(toolResultTexts(project.model.requests[1]!).at(-1)).toBe("slow but there");
  });
});
