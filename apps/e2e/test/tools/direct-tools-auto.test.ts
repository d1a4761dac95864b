/**
 * `directTools: "auto"` and the server roster in the real Pi, both lines,
 * with a scripted model and the stdio fixture server (4 tools, with
 * instructions). A first run knows nothing of the server: `mcp` alone is
 * declared, its roster names the server, and a search lists it (which fills
 * the metadata cache). The next start decides from the cache: the catalog
 * is small, so every tool is declared directly, the roster adds the head of
 * the server's instructions, and status says what "auto" decided.
 */

import type { ChatRequest } from "@pi-mcp-adapter/test-kit";
import { recordedPids, stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

/** Our tools a request declares: `mcp` and the fixture's. */
function ours(request: ChatRequest | undefined): string[] {
  return (request?.tools ?? [])
    .map((t) => t.function.name)
    .filter((n) => n === "mcp" || n.startsWith("fixture_"))
    .sort();
}

function proxyDescription(request: ChatRequest | undefined): string {
  return request?.tools?.find((t) => t.function.name === "mcp")?.function.description ?? "";
}

describe.each(piHosts())("$label", (host) => {
  it('directTools "auto": proxy until the server is known, then its tools are declared directly; the roster names it', async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: ({ pidDir }) => ({
        settings: { directTools: "auto" },
        mcpServers: {
          fixture: {
            command: process.execPath,
            args: [stdioFixtureServerPath],
            env: { FIXTURE_PID_DIR: pidDir },
          },
        },
      }),
      steps: [
        // First run, cold cache.
        { toolCall: { name: "mcp", arguments: { search: "add two numbers" } } },
        { text: "Found it." },
        // Second run, warm cache.
        { toolCall: { name: "fixture_add", arguments: { a: 2, b: 3 } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "Five." },
      ],
    });

    const cold = await project.run("Find a tool that adds.");
    expect(cold.code, cold.stderr).toBe(0);
    expect(ours(cold.requests[0])).toEqual(["mcp"]);
    expect(proxyDescription(cold.requests[0])).toMatch(/calls one\. Servers: fixture\.$/);
    expect(toolResultTexts(cold.requests[1]!)[0]).toContain("fixture_add");
    const started = (await recordedPids(project.pidDir)).length;

    const warm = await project.run("Add 2 and 3.");
    expect(warm.code, warm.stderr).toBe(0);
    expect(ours(warm.requests[0])).toEqual([
      "fixture_add",
      "fixture_echo",
      "fixture_get_weather",
      "fixture_whoami",
      "mcp",
    ]);
    expect(proxyDescription(warm.requests[0])).toMatch(
      /Servers: fixture \("A small fixture server: echo, add, weather and whoami\."\)\.$/,
    );
    expect(toolResultTexts(warm.requests[1]!)).toEqual(["5"]);
    expect(toolResultTexts(warm.requests[2]!).at(-1)).toMatch(
      /directTools "auto": 4 tools, [\d,]+ tokens \(at most 10 tools \/ 2,000 tokens\): declared directly/,
    );
    // Deciding started nothing: only the direct call did.
    expect((await recordedPids(project.pidDir)).length).toBe(started + 1);
  }, 180_000);
});
