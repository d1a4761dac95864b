/**
 * Resource watches in a real terminal: Pi's interactive mode in tmux, on both
 * Pi lines, with the scripted model. `notes` (test-kit's watch fixture) has a
 * subscribable resource that changes when the test writes its file;
 * `fixture` offers no subscriptions. The user watches `note://todo`, the
 * test changes the file, and the notice naming server and URI must appear;
 * the next prompt's request must carry the one-line note (never the
 * content), and `/mcp-adapter watch` and the panel list the watch.
 */
import { writeFile } from "node:fs/promises";
import { userMessageTexts, watchFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { stdioFixtureEntry } from "../../src/fixtures.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { startPiInTmux, type TmuxSession } from "./panel-tmux-session.js";

const NOTE = "MCP resource changed: notes · note://todo (read it again to see the new content)";

/** Types a command line and submits it (Escape first closes Pi's completion list). */
function command(term: TmuxSession, line: string): void {
  term.type(line);
  term.keys("Escape");
  term.keys("Enter");
}

describe.each(piHosts())("resource watches in a terminal on $label", (host) => {
  it("watch → the update's notice names server and URI → the next request carries the one-line note", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ text: "Noted." }],
      adapterConfig: ({ pidDir, join }) => ({
        mcpServers: {
          notes: {
            command: process.execPath,
            args: [watchFixtureServerPath],
            env: { WATCH_FIXTURE_FILE: join("todo.txt") },
          },
          fixture: stdioFixtureEntry(pidDir),
        },
      }),
    });
    await writeFile(project.join("todo.txt"), "buy milk");
    const term = startPiInTmux(host, project);
    try {
      await term.waitFor("Pi's editor", (s) => s.includes("MCP:"), 60_000);

      command(term, "/mcp-adapter watch fixture note://anything");
      await term.waitFor("the refusal", (s) =>
        s.includes('MCP server "fixture" does not offer resource subscriptions'),
      );

      command(term, "/mcp-adapter watch notes note://todo");
      await term.waitFor("the watch", (s) => s.includes("Watching notes · note://todo"), 60_000);

      await writeFile(project.join("todo.txt"), "buy bread");
      await term.waitFor("the update notice", (s) => s.includes("MCP resource updated: notes · note://todo"));

      command(term, "/mcp-adapter watch");
      const list = await term.waitFor("the watch list", (s) => s.includes("Watched resources (1):"));
      expect(list).toMatch(/notes · note:\/\/todo — \d+ updates?/);

      // The panel lists it under the servers.
      command(term, "/mcp-adapter");
      // (The panel's heading has no colon, unlike the list shown by the command above.)
      const panel = await term.waitFor(
        "the panel's watch list",
        (s) => s.includes("↑↓ move") && /Watched resources \(1\)\s*$/m.test(s),
      );
      expect(panel).toMatch(/^\s+notes · note:\/\/todo — \d+ updates?\s*$/m);
      term.keys("Escape");
      await term.waitFor("the panel to close", (s) => !s.includes("↑↓ move"));

      term.type("Anything new?");
      term.keys("Enter");
      await term.waitFor("the answer", (s) => s.includes("Noted."), 60_000);
      const [request] = project.model.requests;
      const texts = userMessageTexts(request!);
      expect(texts.filter((t) => t.includes(NOTE))).toHaveLength(1);
      expect(texts.join("\n")).not.toContain("buy bread");
      expect(texts.at(-1)).toBe(NOTE);
    } finally {
      term.kill();
    }
  });
});
