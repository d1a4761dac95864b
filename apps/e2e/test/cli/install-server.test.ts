/**
 * `mcp({action: "install", url})` from the model in real Pi: in RPC mode the
 * user sees a confirm dialog naming the entry and the file; yes writes the
 * user's mcp-adapter.json and the next call reaches the new server; no
 * writes nothing. In print mode (`-p`, no dialog) the call is refused and the
 * model is told what the user can run instead.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { type ServerEverythingHttp, startServerEverything, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

let server: ServerEverythingHttp;
beforeAll(async () => {
  server = await startServerEverything("streamableHttp");
});
afterAll(async () => {
  await server?.close();
});

const install = () => ({
  toolCall: { name: "mcp", arguments: { action: "install", url: server.url, server: "everything" } },
});

describe.each(piHosts())("$label", (host) => {
  for (const answer of [true, false]) {
    it(`installs a server only when the user says ${answer ? "yes" : "no"} in the dialog`, async () => {
      await using project = await createPiProject({
        host,
        steps: [
          install(),
          { toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a: 2, b: 3 } } } },
          { text: "done" },
        ],
      });
      const file = path.join(project.agentDir, "mcp-adapter.json");
      const child = project.rpc();
      const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
      const dialogs: string[] = [];
      const timer = setTimeout(() => child.kill(), 100_000);
      try {
        send({ id: "go", type: "prompt", message: "Install the server and add 2 and 3." });
        for await (const message of rpcMessages(child.stdout)) {
          if (message.type === "agent_end") break;
          if (message.type !== "extension_ui_request") continue;
          if (message.method === "confirm") {
            dialogs.push(`${message.title}\n${message.message}`);
            send({ type: "extension_ui_response", id: message.id, confirmed: answer });
          } else if (["select", "input", "editor"].includes(message.method ?? "")) {
            send({ type: "extension_ui_response", id: message.id, cancelled: true });
          }
        }
      } finally {
        clearTimeout(timer);
        child.kill();
      }
      expect(dialogs).toHaveLength(1);
      expect(dialogs[0]).toContain("Install MCP server?");
      expect(dialogs[0]).toContain(file);
      expect(dialogs[0]).toContain(`"url": "${server.url}"`);
      const results = toolResultTexts(project.model.requests[2]!);
      if (answer) {
        expect(results[0]).toContain('Installed MCP server "everything"');
        expect(JSON.parse(await readFile(file, "utf8")).mcpServers.everything).toEqual({ url: server.url });
        expect(results[1]).toContain("The sum of 2 and 3 is 5");
      } else {
        expect(results[0]).toContain("The user declined");
        await expect(readFile(file, "utf8")).rejects.toThrow(/ENOENT/);
      }
    });
  }

  it("without a dialog (print mode) refuses and names the command the user can run", async () => {
    await using project = await createPiProject({ host, steps: [install(), { text: "done" }] });
    const run = await project.run("Install the server.");
    expect(run.code, run.stderr).toBe(0);
    const [result] = toolResultTexts(project.model.requests[1]!);
    expect(result).toContain("Installing a server needs the user's confirmation");
    expect(result).toContain(`pi-mcp-adapter add <name> --url ${server.url}`);
    await expect(readFile(path.join(project.agentDir, "mcp-adapter.json"), "utf8")).rejects.toThrow(/ENOENT/);
  });
});
