/**
 * The search index kept beside the metadata cache, through the real Pi: a
 * session that searches once and ends leaves `mcp-search-index.bin` in the
 * agent dir; the next session (its server's tools unchanged, served from the
 * cache) answers the same search alike and leaves the file as it was (read,
 * not rebuilt); a damaged file is passed over without a word to the user and
 * replaced.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

describe.each(piHosts())("$label", (host) => {
  it("keeps the search index across sessions, and replaces a damaged one in silence", async () => {
    const search = { toolCall: { name: "mcp", arguments: { search: "city forecast" } } };
    await using project = await createPiProject({
      host,
      mcpServers: ({ pidDir }) => ({
        fixture: {
          command: process.execPath,
          args: [stdioFixtureServerPath],
          env: { FIXTURE_PID_DIR: pidDir },
        },
      }),
      allowProjectServers: true,
      steps: [search, { text: "ok" }, search, { text: "ok" }, search, { text: "ok" }],
    });
    const indexFile = path.join(project.agentDir, "mcp-search-index.bin");
    const session = async () => {
      const run = await project.run("Weather?");
      expect(run.code, run.stderr).toBe(0);
      return { result: toolResultTexts(run.requests.at(-1)!)[0], stderr: run.stderr };
    };

    const first = await session();
    expect(first.result).toContain("fixture_get_weather");
    // Written before Pi exits, although the session ended right after its search.
    const written = await readFile(indexFile);
    expect(written.subarray(0, 4).toString()).toBe("PMSI");
    const before = await stat(indexFile);

    const second = await session();
    expect(second.result).toBe(first.result);
    const after = await stat(indexFile);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

    await writeFile(indexFile, written.subarray(0, written.length / 2));
    const third = await session();
    expect(third.result).toBe(first.result);
    expect(third.stderr).not.toMatch(/search-index|mcp-search-index/);
    expect(await readFile(indexFile)).toEqual(written);
  }, 180_000);
});
