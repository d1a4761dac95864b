/**
 * Direct tools in the real Pi, both lines, with a scripted model:
 * (1) a cold cache: the first request already declares the listed tools of
 *     server-everything (listed by the session before its first prompt), and a
 *     direct call returns the sum;
 * (2) a warm cache: the same surface with no server process started;
 * (3) a server that adds a tool and sends `tools/list_changed`: the next
 *     prompt can call it directly; with `freezeDirectTools` it is not
 *     declared, but proxy search finds it;
 * (4) `directTools: "search"`: absent from the first request, declared once
 *     our search returns it (and, on Pi 1.x, found by Pi's own tool_search);
 * (5) approval and the output guard apply to direct calls.
 * The settings around them are in direct-tools-settings.test.ts.
 */
import { writeFile } from "node:fs/promises";
import { type ChatRequest, recordedPids, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts, toolSearchExtension } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import {
  EVERYTHING_WRAPPER,
  everythingProject,
  FARM_SERVER,
  mcpNames,
  promptInOneSession,
} from "./direct-tools-project.js";

describe.each(piHosts())("$label", (host) => {
  it("(1) cold and (2) warm cache: the first request declares exactly the listed direct tools; warm spawns nothing", async () => {
    await using project = await everythingProject(host, { directTools: ["get-sum", "echo"] }, [
      { toolCall: { name: "everything_get_sum", arguments: { a: 2, b: 3 } } },
      { text: "Five." },
      // The warm run answers at once.
      { text: "Hello." },
    ]);
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);

    const cold = await project.run("What is 2 + 3?");
    expect(cold.code, cold.stderr).toBe(0);
    expect(mcpNames(cold.requests[0], "everything")).toEqual([
      "everything_echo",
      "everything_get_sum",
      "mcp",
    ]);
    expect(toolResultTexts(cold.requests[1]!)[0]).toContain("5");
    const afterCold = (await recordedPids(project.pidDir)).length;
    expect(afterCold).toBeGreaterThan(0);

    const warm = await project.run("Hi");
    expect(warm.code, warm.stderr).toBe(0);
    expect(mcpNames(warm.requests[0], "everything")).toEqual([
      "everything_echo",
      "everything_get_sum",
      "mcp",
    ]);
    expect((await recordedPids(project.pidDir)).length).toBe(afterCold);
  }, 120_000);

  it.each([
    { frozen: false, label: "registers a tool added mid-session for the next prompt" },
    {
      frozen: true,
      label: "with freezeDirectTools keeps the surface, while proxy search finds the new tool",
    },
  ])(
    "(3) tools/list_changed $label",
    async ({ frozen }) => {
      await using project = await createPiProject({
        host,
        adapterConfig: ({ join }) => ({
          settings: { directTools: true, ...(frozen ? { freezeDirectTools: true } : {}) },
          mcpServers: { farm: { command: process.execPath, args: [join("farm.mjs")] } },
        }),
        steps: [
          { toolCall: { name: "farm_grow", arguments: {} } },
          { text: "Grown." },
          frozen
            ? { toolCall: { name: "mcp", arguments: { search: "harvest crop" } } }
            : { toolCall: { name: "farm_harvest", arguments: {} } },
          { text: "Done." },
        ],
      });
      await writeFile(project.join("farm.mjs"), FARM_SERVER);
      await promptInOneSession(project, ["Grow.", "Harvest."]);
      const requests = project.model.requests;
      expect(requests).toHaveLength(4);
      expect(mcpNames(requests[0], "farm")).toEqual(["farm_grow", "mcp"]);
      expect(toolResultTexts(requests[1]!)).toEqual(["grow done"]);
      if (frozen) {
        expect(mcpNames(requests[2], "farm")).toEqual(["farm_grow", "mcp"]);
        expect(toolResultTexts(requests[3]!).at(-1)).toContain("farm_harvest");
      } else {
        expect(mcpNames(requests[2], "farm")).toEqual(["farm_grow", "farm_harvest", "mcp"]);
        expect(toolResultTexts(requests[3]!).at(-1)).toBe("harvest done");
      }
    },
    150_000,
  );

  // Pi 1.x registers these with `exposure: "deferred"` (its tool search finds them too); the 0.7x
  // line registers them and takes them out of the active set. Both declare them after our search.
  it('(4) directTools "search": absent from the first request, declared once our search returns them', async () => {
    await using project = await everythingProject(host, { directTools: "search" }, [
      { toolCall: { name: "mcp", arguments: { search: "sum two numbers" } } },
      { text: "Found it." },
      { toolCall: { name: "everything_get_sum", arguments: { a: 20, b: 22 } } },
      { text: "42." },
    ]);
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    await promptInOneSession(project, ["Find a sum tool.", "Add 20 and 22."]);
    const requests = project.model.requests;
    expect(mcpNames(requests[0], "everything")).toEqual(["mcp"]);
    expect(toolResultTexts(requests[1]!)[0]).toContain("everything_get_sum");
    expect(mcpNames(requests[2], "everything")).toContain("everything_get_sum");
    expect(mcpNames(requests[2], "everything")).not.toContain("everything_echo");
    expect(toolResultTexts(requests[3]!).at(-1)).toContain("42");
  }, 150_000);

  it("(5) approval and the output guard apply to a direct call", async () => {
    await using project = await everythingProject(
      host,
      { directTools: true, approveTools: ["get-sum"] },
      [
        { toolCall: { name: "everything_get_sum", arguments: { a: 1, b: 2 } } },
        { toolCall: { name: "everything_echo", arguments: { message: "word ".repeat(200) } } },
        { text: "Done." },
      ],
      { outputGuard: { maxBytes: 100 } },
    );
    await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
    const run = await project.run("Add and echo.");
    expect(run.code, run.stderr).toBe(0);
    const refused = toolResultTexts(run.requests[1]!)[0] ?? "";
    expect(refused).toContain("approval_required");
    expect(refused).not.toContain("is 3");
    const echoed = toolResultTexts(run.requests[2]!)[1] ?? "";
    expect(echoed).toMatch(/\[Output truncated: showing 100 B of [\d.]+ [KiB]+/);
    expect(Buffer.byteLength(echoed)).toBeLessThan(600);
  }, 120_000);

  // Pi 1.x only: its own `tool_search` (a built-in extension, loaded here next to ours) finds the
  // deferred tools and loads them for the next model call of the same prompt.
  if (host.nativeMcp)
    it('(4, Pi 1.x) directTools "search": Pi\'s tool_search finds and loads them', async () => {
      const toolSearch = toolSearchExtension(host);
      await using project = await everythingProject(host, { directTools: "search" }, [
        { toolCall: { name: "tool_search", arguments: { query: "sum two numbers" } } },
        { toolCall: { name: "everything_get_sum", arguments: { a: 20, b: 22 } } },
        { text: "42." },
      ]);
      await writeFile(project.join("everything.mjs"), EVERYTHING_WRAPPER);
      const run = await project.run("Add 20 and 22.", { extraArgs: ["-e", toolSearch] });
      expect(run.code, run.stderr).toBe(0);
      const declared = (request: ChatRequest | undefined) =>
        (request?.tools ?? []).map((t) => t.function.name);
      expect(declared(run.requests[0])).toContain("tool_search");
      expect(mcpNames(run.requests[0], "everything")).toEqual(["mcp"]);
      expect(mcpNames(run.requests[1], "everything")).toContain("everything_get_sum");
      expect(toolResultTexts(run.requests[2]!).at(-1)).toContain("42");
    }, 120_000);
});
