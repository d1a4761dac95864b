/**
 * A server whose tools differ at every listing, in real Pi (`--mode rpc`,
 * where notices reach the client as `notify` requests): the stdio fixture
 * with FIXTURE_CHURN sends tools/list_changed 25 times during one call, each
 * answered by a relisting with changed and new tools. The user sees one
 * tool-pinning notice for it, naming the change and trust-tools — not one
 * per relisting (the later ones are summed up after a minute, see the
 * runtime's pin-notices test).
 */
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { runRpcPrompt } from "../../src/rpc-messages.js";

const TIMES = 25;

describe.each(piHosts())("$label", (host) => {
  it(`a server relisted ${TIMES} times with changed tools gives one tool-pinning notice`, async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: {
          fixture: { command: process.execPath, args: [stdioFixtureServerPath], env: { FIXTURE_CHURN: "1" } },
        },
      },
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "fixture_churn", args: { times: TIMES } } } },
        { text: "Done." },
      ],
    });
    const notices: string[] = [];
    await runRpcPrompt(project.rpc(), "Churn.", () => undefined, {
      onMessage: (message) => {
        if (message.type === "extension_ui_request" && message.method === "notify") {
          notices.push(message.message ?? "");
        }
      },
    });

    // The call ran to its end: every notification was answered by a relisting before the next.
    expect(toolResultTexts(project.model.requests.at(-1)!).at(-1)).toBe(`sent ${TIMES}`);
    const pinNotices = notices.filter((n) => n.startsWith("MCP server fixture"));
    expect(pinNotices).toHaveLength(1);
    expect(pinNotices[0]).toContain("MCP server fixture:\ntool echo changed: description: ");
    expect(pinNotices[0]).toMatch(/new tools: listing_\d+/);
    expect(pinNotices[0]).toContain("Accept with pi-mcp-adapter trust-tools fixture.");
  });
});
