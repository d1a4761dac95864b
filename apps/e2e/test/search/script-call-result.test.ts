/**
 * mcpScript's `tools.call` hands the script the MCP result as
 * server-everything (stdio) sent it, in real Pi on both lines with a
 * scripted model: `structuredContent` and `isError: false` for a weather
 * lookup, and for a call the server answers with a tool error, `ok: false`
 * with the server's result (`isError: true`) beside the error.
 */
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const SCRIPT = `
const weather = await tools.call("everything_get-structured-content", { location: "Chicago" });
const bad = await tools.call("everything_get-sum", { a: "not a number", b: 1 });
return {
  ok: weather.ok,
  isError: weather.data.isError,
  temperature: typeof weather.data.structuredContent.temperature,
  bad: { ok: bad.ok, code: bad.error.code, isError: bad.data && bad.data.isError },
};`;

describe.each(piHosts())("$label", (host) => {
  it("gives a script the MCP result: structuredContent, isError, and the result of a tool error", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { scriptMode: true },
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath, "stdio"] } },
      },
      steps: [{ toolCall: { name: "mcpScript", arguments: { code: SCRIPT } } }, { text: "Done." }],
    });
    const run = await project.run("Check the weather with a script.", { timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const text = toolResultTexts(run.requests[1]!).at(-1) ?? "";
    const value = JSON.parse(text.slice(text.indexOf("{")));
    expect(value).toEqual({
      ok: true,
      isError: false,
      temperature: "number",
      bad: { ok: false, code: "tool_error", isError: true },
    });
  }, 180_000);
});
