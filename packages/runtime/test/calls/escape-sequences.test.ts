/**
 * What the model reads from describe, search, instructions, a server's
 * details and status carries none of a hostile server's escape sequences
 * (the escape fixture server over real stdio).
 */
import { escapeServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { AdapterRuntime } from "../../src/index.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";
import { connectWith, stdioDefinition } from "../definitions.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("text for the model from a server with escape sequences", () => {
  it("describe, search, instructions, server details and status are stripped", async () => {
    const command = { command: process.execPath, args: [escapeServerPath] };
    const runtime = new AdapterRuntime({
      servers: [
        stdioDefinition("escape", command),
        stdioDefinition("broken", { ...command, env: { ESCAPE_FAIL: "1" } }),
      ],
      connect: connectWith({ resolveCommand: null }),
    });
    try {
      const text = async (params: Record<string, unknown>) =>
        (await runProxyRequest(runtime, params)).content
          .map((c) => (c.type === "text" ? c.text : ""))
          .join("");
      const search = await text({ search: "paint wall" });
      expect(search).toContain("Paint a wall in a colour.");
      expect(search).toContain("server broken unavailable");
      const name = /- (escape_\S+):/.exec(search)?.[1] ?? "";
      const texts = [
        search,
        await text({ describe: name }),
        await text({ instructions: "escape" }),
        await text({ server: "escape" }),
        await text({}),
      ];
      expect(texts[1]).toContain("Colour name");
      expect(texts[2]).toContain("Use paint for colours.");
      expect(texts[4]).toContain("fatal boom");
      for (const t of texts) expect(t).not.toMatch(CONTROL);
    } finally {
      await runtime.shutdown();
    }
  });
});
