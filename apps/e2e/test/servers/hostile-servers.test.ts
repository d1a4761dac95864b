/**
 * Hostile servers end to end, through the real Pi CLI: beside a server whose
 * tool names fold alike (`get-sum`, `get_sum`, `get.sum`, `get sum`, and two
 * empty names), a server lists a 50 MB description. The model still finds
 * and calls every colliding tool by its own name, is told why the bloated
 * server is unavailable, gets an error that names the real cause for a name
 * that matches several tools of one server, and the metadata cache stays small.
 */
import { stat } from "node:fs/promises";
import { type HttpFixture, serveHostileServer, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

let colliding: HttpFixture;
let bloated: HttpFixture;

beforeAll(async () => {
  colliding = await serveHostileServer("colliding-names");
  bloated = await serveHostileServer("huge-description");
});

afterAll(async () => {
  await colliding?.close();
  await bloated?.close();
});

describe.each(piHosts())("$label", (host) => {
  it("keeps colliding tool names reachable and refuses a 50 MB catalog with a reason", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: () => ({ mcpServers: { calc: { url: colliding.url }, bloat: { url: bloated.url } } }),
      steps: [
        { toolCall: { name: "mcp", arguments: { search: "sums numbers" } } },
        { toolCall: { name: "mcp", arguments: { tool: "calc_get_sum_2", args: {} } } },
        { toolCall: { name: "mcp", arguments: { tool: "get.sum", server: "calc", args: {} } } },
        { toolCall: { name: "mcp", arguments: { tool: "GETSUM", server: "calc", args: {} } } },
        { text: "Done." },
      ],
    });
    const run = await project.run("Sum things.", { timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const results = project.model.requests.slice(1).map((request) => toolResultTexts(request).at(-1) ?? "");
    const [search, second, dotted, ambiguous] = results;

    for (const name of ["calc_get_sum", "calc_get_sum_2", "calc_get_sum_3", "calc_get_sum_4"])
      expect(search).toMatch(new RegExp(`^- ${name}: Sums numbers`, "m"));
    expect(search).toContain(
      '(server bloat unavailable: Server "bloat" listed more than 4 MiB of tool, resource and prompt descriptions',
    );
    expect(Buffer.byteLength(search ?? "")).toBeLessThan(4096);
    expect(second).toBe("called get sum");
    expect(dotted).toBe("called get.sum");
    expect(ambiguous).toContain(
      'Tool "GETSUM" matches 4 entries of server calc whose names differ only in case or punctuation',
    );
    expect(ambiguous).not.toContain("several servers");
    // Nothing of the 50 MB listing reached the metadata cache.
    expect((await stat(project.join("agent", "mcp-cache.json"))).size).toBeLessThan(8192);
  }, 180_000);
});
