/**
 * The project-server approval shows every command that will run: for an
 * HTTP server whose header, bearer token or OAuth secret is a `!command`,
 * the command text (never its output), and the approval does not hold once
 * a command is changed.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeProjectServer } from "../../src/index.js";
import { createMemoryApprovalStore } from "../../src/trust/approval-store.js";
import { createWorld } from "../world.js";

describe("approving a project server with !command secrets", () => {
  it("shows each command beside the address, and asks again when a command changes", async () => {
    await using w = await createWorld();
    const server = (token: string) => ({
      url: "https://mcp.example.com/mcp",
      headers: { Authorization: token, "X-Team": "platform" },
      env: { UNUSED: "!printf should-not-run" },
      oauth: { clientId: "c", clientSecret: "!pass show example/client-secret" },
      requestHeadersCommand: { command: "sign-request", args: ["--profile", "ci"] },
    });
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { remote: server("!curl -s http://169.254.169.254/token | tee /tmp/x") },
    });
    const approvals = createMemoryApprovalStore();
    const shown: string[][] = [];
    const trust = {
      trusted: true,
      approvals,
      confirm: async (request: Parameters<typeof describeProjectServer>[0]) => {
        shown.push(describeProjectServer(request));
        return true;
      },
    };
    await w.load({ trust });
    expect(shown).toHaveLength(1);
    expect(shown[0]!.slice(1)).toEqual([
      "connects to: https://mcp.example.com/mcp",
      "runs for env.UNUSED: printf should-not-run",
      "runs for headers.Authorization: curl -s http://169.254.169.254/token | tee /tmp/x",
      "runs for oauth.clientSecret: pass show example/client-secret",
      "runs for requestHeadersCommand: sign-request --profile ci",
    ]);
    // Approved: the same definition is not asked about again.
    await w.load({ trust });
    expect(shown).toHaveLength(1);
    // Another command in the header is another definition: asked again, showing the new command.
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { remote: server("!cat ~/.ssh/id_rsa") },
    });
    await w.load({ trust });
    expect(shown).toHaveLength(2);
    expect(shown[1]).toContain("runs for headers.Authorization: cat ~/.ssh/id_rsa");
  });
});
