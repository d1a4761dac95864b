/**
 * The settings around direct tools in the real Pi, both lines, with a scripted
 * model: `disableProxyTool`, `namespaceProxyTools`, `deferWithMissingMetadata`,
 * `strictDirectToolArguments` with `mcp({ connect })`, and
 * `/mcp-adapter reconnect` registering what a server now offers.
 */
import { writeFile } from "node:fs/promises";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import {
  EVERYTHING_WRAPPER,
  everythingProject,
  MENU_SERVER,
  mcpNames,
  promptInOneSession,
} from "./direct-tools-project.js";

describe.each(piHosts())("$label", (host) => {
  it("disableProxyTool declares direct tools only; namespaceProxyTools adds mcp__<server> beside mcp", async () => {
    await using project = await everythingProject(host, { directTools: ["echo"] }, [{ text: "Hi." }], {
      disableProxyTool: true,
    });
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Hi");
    expect(run.code, run.stderr).toBe(0);
    expect(mcpNames(run.requests[0], "everything")).toEqual(["everything_echo"]);

    await using wrapped = await everythingProject(
      host,
      {},
      [
        { toolCall: { name: "mcp__everything", arguments: { search: "sum of two numbers" } } },
        { text: "Found." },
      ],
      { namespaceProxyTools: true },
    );
    await writeFile(wrapped.join("everything.mjs"), EVERYTHING_WRAPPER);
    const second = await wrapped.run("Find a sum tool.");
    expect(second.code, second.stderr).toBe(0);
    expect(mcpNames(second.requests[0], "everything", "mcp__")).toEqual(["mcp", "mcp__everything"]);
    expect(toolResultTexts(second.requests[1]!)[0]).toContain("everything_get_sum");
  }, 120_000);

  it("deferWithMissingMetadata: a cold server's direct tools arrive a prompt later, not at start-up", async () => {
    await using project = await everythingProject(
      host,
      { directTools: ["get-sum"] },
      [
        { text: "Later." },
        { toolCall: { name: "everything_get_sum", arguments: { a: 4, b: 5 } } },
        { text: "9." },
      ],
      { deferWithMissingMetadata: true },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    await promptInOneSession(project, ["Hi.", "Add 4 and 5."]);
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "everything")).toEqual(["mcp"]);
    expect(mcpNames(requests[1], "everything")).toEqual(["everything_get_sum", "mcp"]);
    expect(toolResultTexts(requests[2]!).at(-1)).toContain("9");
  }, 150_000);

  it("strictDirectToolArguments names the bad field before the server is asked; mcp({ connect }) relists; status names unknown direct tools", async () => {
    await using project = await everythingProject(
      host,
      { directTools: ["get-sum", "no-such-tool"] },
      [
        { toolCall: { name: "everything_get_sum", arguments: { a: "2", b: 3 } } },
        { toolCall: { name: "mcp", arguments: { connect: "everything" } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Done." },
      ],
      { strictDirectToolArguments: true },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Add.");
    expect(run.code, run.stderr).toBe(0);
    // Pi alone would convert "2" to 2 and call; strict checks what the model sent.
    expect(toolResultTexts(run.requests[1]!)[0]).toBe(
      'Tool everything_get_sum: argument "a" must be number (got string "2")',
    );
    expect(toolResultTexts(run.requests[2]!)[1]).toMatch(/^Connected everything: \d+ tools listed\.$/);
    expect(toolResultTexts(run.requests[3]!)[2]).toContain(
      'warning: direct tools: Server "everything": directTools names "no-such-tool", which it does not offer',
    );
  }, 120_000);

  it("/mcp-adapter reconnect lists a server again and registers what it now offers", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ join }) => ({
        settings: { directTools: true },
        mcpServers: {
          menu: {
            command: process.execPath,
            args: [join("menu.mjs")],
            env: { MENU_FILE: join("menu.json") },
          },
        },
      }),
      steps: [{ text: "Hi." }, { toolCall: { name: "menu_beta", arguments: {} } }, { text: "Served." }],
    });
    await writeFile(project.join("menu.mjs"), MENU_SERVER);
    await writeFile(project.join("menu.json"), JSON.stringify(["alpha"]));
    const notices = await promptInOneSession(project, [
      "Hi.",
      async () => {
        await writeFile(project.join("menu.json"), JSON.stringify(["alpha", "beta"]));
        return "/mcp-adapter reconnect menu";
      },
      "Serve beta.",
    ]);
    expect(notices).toContain("menu: reconnected, 2 tools");
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "menu")).toEqual(["mcp", "menu_alpha"]);
    expect(mcpNames(requests[1], "menu")).toEqual(["mcp", "menu_alpha", "menu_beta"]);
    expect(toolResultTexts(requests[2]!).at(-1)).toBe("beta served");
  }, 150_000);
});
