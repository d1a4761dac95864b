/**
 * Search for every user, in real Pi: a tool described only in Japanese is
 * found by a Japanese query through `mcp({search})`, and `regex: true` runs a
 * catastrophic-backtracking pattern at once (JavaScript's RegExp takes more
 * than 2 s on one of these descriptions, see apps/bench) and refuses a
 * backreference with a hint.
 */
import {
  createFixtureServer,
  type HttpFixture,
  serveStreamableHttp,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const TOOLS = [
  { name: "take_screenshot", description: "ページのスクリーンショットを撮影します。" },
  { name: "open_url", description: "指定したURLをブラウザで開きます。" },
  { name: "create_branch", description: "Create a new branch in a GitHub repository today!" },
  { name: "get_weather", description: "Get the current weather forecast for a city." },
];

describe("search in any language, and regex that cannot freeze Pi", () => {
  let server: HttpFixture | undefined;

  beforeAll(async () => {
    server = await serveStreamableHttp(() => createFixtureServer({ name: "browser", tools: TOOLS }));
  });

  afterAll(async () => {
    await server?.close();
  });

  describe.each(piHosts())("$label", (host) => {
    it("finds a Japanese-described tool by a Japanese query; regex search returns or refuses at once", async () => {
      await using project = await createPiProject({
        host,
        adapterConfig: { mcpServers: { browser: { url: server?.url } } },
        steps: [
          { toolCall: { name: "mcp", arguments: { search: "スクリーンショットを撮る" } } },
          { toolCall: { name: "mcp", arguments: { search: "^([A-Za-z]+\\s?)+$", regex: true } } },
          { toolCall: { name: "mcp", arguments: { search: "(branch)_\\1", regex: true } } },
          { text: "Done." },
        ],
      });
      const run = await project.run("スクリーンショットを撮って");
      expect(run.code, run.stderr).toBe(0);
      const [found, backtracking, refused] = toolResultTexts(run.requests[3]!);

      expect(found).toContain("browser_take_screenshot");
      expect(found).toContain("ページのスクリーンショットを撮影します。");
      expect(found).not.toContain("browser_get_weather");

      // Only the names made of letters alone would match; no description here is letters and spaces alone.
      expect(backtracking).toContain('No tools match "^([A-Za-z]+\\s?)+$"');

      expect(refused).toContain("no backreferences");
      expect(refused).toContain("plain words (regex: false)");
    });
  });
});
