/**
 * A keep-alive server that changes its tools without sending `list_changed`
 * is listed again on the schedule, in real Pi (both lines, `--mode rpc`):
 * the schedule is set short (`keepAliveRelistMinutes: 0.005`, 300 ms), the
 * fixture server reads its tools from a file at each listing and declares no
 * `listChanged`. `/mcp-adapter tools kept` answers from what the session has
 * listed (it never lists a listed server again), so it is asked until the
 * new tool shows, with a generous deadline — no fixed wait.
 */
import { writeFile } from "node:fs/promises";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

describe.each(piHosts())("$label", (host) => {
  it("a tool a keep-alive server adds silently shows up without a reconnect", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: (p) => ({
        mcpServers: {
          kept: {
            command: process.execPath,
            args: [stdioFixtureServerPath],
            env: { FIXTURE_TOOLS_FILE: p.join("tools.json") },
            lifecycle: "keep-alive",
          },
        },
        settings: { keepAliveRelistMinutes: 0.005 },
      }),
    });
    const child = project.rpc();
    const ask = () =>
      child.stdin.write(`${JSON.stringify({ type: "prompt", message: "/mcp-adapter tools kept" })}\n`);
    const answers: string[] = [];
    const deadline = Date.now() + 60_000;
    const timer = setTimeout(() => child.kill(), 70_000);
    try {
      ask();
      for await (const message of rpcMessages(child.stdout)) {
        if (message.type !== "extension_ui_request" || message.method !== "notify") continue;
        const text = message.message ?? "";
        if (!text.includes("echo")) continue;
        answers.push(text);
        if (text.includes("late_tool") || Date.now() > deadline) break;
        // The first answer listed the server; now its tools change behind the session's back.
        if (answers.length === 1) {
          await writeFile(
            project.join("tools.json"),
            JSON.stringify({ late_tool: { description: "Added later." } }),
          );
        }
        // Poll, not spin: ask again a moment later.
        await new Promise((resolve) => setTimeout(resolve, 100));
        ask();
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }
    expect(answers[0]).not.toContain("late_tool");
    expect(answers.at(-1)).toContain("late_tool");
  }, 90_000);
});
