/**
 * What the adapter shows in Pi's interactive mode, in a real terminal
 * (tmux), on both Pi lines, with the display fixture server:
 * - a prompt command previews the prompt's messages (folded, with Use
 *   prompt / Cancel): Cancel sends nothing to the model, Use prompt sends
 *   the whole text and starts a turn;
 * - a running proxy call shows its elapsed time and the server's latest
 *   progress in its row until the test lets the call end (a file the
 *   server waits for), then ✔ and its result;
 * - an expanded JSON result is indented and coloured (read with
 *   `capture-pane -e`), while the model gets the server's text unchanged.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { type ChatRequest, displayFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { startPiInTmux, type TmuxSession } from "./panel-tmux-session.js";

const INVENTORY_TEXT = '{"items":[{"name":"bolt","count":12,"ok":true}],"total":12,"note":null}';

function displayConfig(project: { root: string; join(...parts: string[]): string }) {
  return {
    mcpServers: {
      display: {
        command: process.execPath,
        args: [displayFixtureServerPath],
        env: { DISPLAY_RELEASE_FILE: project.join("release") },
        lifecycle: "eager",
      },
    },
  };
}

/** The screen with its colours (`capture-pane -e`): SGR escape sequences kept. */
function colouredScreen(project: PiProject): string {
  return execFileSync("tmux", ["-S", project.join("tmux.sock"), "capture-pane", "-p", "-e", "-t", "pi"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH },
  });
}

/** The SGR sequence right before `word` on a coloured screen, if one is. */
function colourBefore(screen: string, word: string): string | undefined {
  return new RegExp(`(\u001b\\[[0-9;]*m)${word}`).exec(screen)?.[1];
}

function lastUserText(request: ChatRequest | undefined): string {
  const content = request?.messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((p) => (p as { text?: string }).text ?? "").join("") : "";
}

/** Types a line into Pi's editor and submits it (a completion list, if one is open, closed first). */
async function submit(term: TmuxSession, line: string): Promise<void> {
  term.type(line);
  await term.waitFor(`"${line}" in the editor`, (s) => s.includes(line));
  term.keys("Escape");
  term.keys("Enter");
}

describe.each(piHosts())("what the adapter shows in a terminal on $label", (host) => {
  it("a prompt command previews the messages: Cancel sends nothing, Use prompt starts the turn", async () => {
    await using project = await createPiProject({ host, adapterConfig: displayConfig });
    const term = startPiInTmux(host, project);
    try {
      await term.waitFor("the footer status", (s) => s.includes("MCP: 1/1 connected"), 60_000);

      // The prompt's command exists once the server's prompts are listed: `/mcp-adapter prompts` lists them.
      await submit(term, "/mcp-adapter prompts");
      await term.waitFor("the prompt listed", (s) => s.includes("/mcp__display__review <topic>"), 60_000);
      await submit(term, "/mcp__display__review Tea");
      const preview = await term.waitFor("the preview", (s) => s.includes("I will review Tea."), 60_000);
      expect(preview).toContain("/mcp__display__review: what the prompt adds to the conversation");
      expect(preview).toContain("Please review Tea carefully.");
      // The marker and thirty lines fold after eleven; the server's escape sequence is gone, not drawn as text.
      expect(preview).toMatch(/\[user\]\s*\n\s*Please review Tea carefully\./);
      expect(preview).toContain("point 10 about Tea");
      expect(preview).not.toContain("point 11 about Tea");
      expect(preview).toContain("… 20 more lines");
      expect(preview).not.toContain("[31m");
      expect(preview).toMatch(/Use prompt\s*\n\s*Cancel/);

      term.keys("Down");
      term.keys("Enter");
      await term.waitFor("the preview to close", (s) => !s.includes("I will review Tea."));

      await submit(term, "/mcp__display__review Coffee");
      await term.waitFor("the second preview", (s) => s.includes("I will review Coffee."), 60_000);
      term.keys("Enter");
      await term.waitFor("the answer", (s) => s.includes("Done."), 60_000);

      // One request only: the cancelled prompt never reached the model; the used one did, unfolded.
      expect(project.model.requests).toHaveLength(1);
      const sent = lastUserText(project.model.requests[0]);
      expect(sent).toContain("Please review Coffee carefully.");
      expect(sent).toContain("point 30 about Coffee");
      expect(sent).toContain("[assistant]\nI will review Coffee.");
      expect(sent).not.toContain("\u001b");
      expect(JSON.stringify(project.model.requests)).not.toContain("Tea");
    } finally {
      term.kill();
    }
  });

  it("a running call shows elapsed time and progress in its row; an expanded JSON result is highlighted", async () => {
    await using project = await createPiProject({
      host,
      adapterConfig: displayConfig,
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "slow_report", server: "display" } } },
        { toolCall: { name: "mcp", arguments: { tool: "inventory", server: "display" } } },
      ],
    });
    const term = startPiInTmux(host, project);
    try {
      await term.waitFor("the footer status", (s) => s.includes("MCP: 1/1 connected"), 60_000);
      term.type("Report, then the stock.");
      term.keys("Enter");

      // The row: the call's title, then its elapsed seconds and the latest progress line.
      const running = await term.waitFor(
        "the progress row",
        (s) => /… running \d+s · 2\/3 · waiting for the signal/.test(s),
        60_000,
      );
      expect(running).toContain("mcp call display/slow_report");
      const seconds = (s: string) => Number(/… running (\d+)s/.exec(s)?.[1]);
      const first = seconds(running);
      // Elapsed time moves on while the call waits.
      await term.waitFor("the elapsed time to move on", (s) => seconds(s) > first, 30_000);

      await writeFile(project.join("release"), "");
      await term.waitFor("the ended row", (s) => s.includes("✔ mcp call display/slow_report"), 60_000);
      const done = await term.waitFor("the answer", (s) => s.includes("Done."), 60_000);
      expect(done).not.toContain("… running");
      // Collapsed, the JSON row reads as the server wrote it.
      expect(done).toContain("✔ mcp call display/inventory");
      expect(done).toContain(`⎿ ${INVENTORY_TEXT.slice(0, 40)}`);

      term.keys("C-o");
      const expanded = await term.waitFor("the expanded JSON", (s) => /"name": "bolt",/.test(s));
      expect(expanded).toMatch(
        /\n\s+"items": \[\n\s+\{\n\s+"name": "bolt",\n\s+"count": 12,\n\s+"ok": true\n/,
      );
      expect(expanded).toMatch(/"note": null\n\s+\}/);
      // Keys and strings in different colours of Pi's theme.
      const coloured = colouredScreen(project);
      const key = colourBefore(coloured, '"name"');
      const value = colourBefore(coloured, '"bolt"');
      expect(key).toBeDefined();
      expect(value).toBeDefined();
      expect(key).not.toBe(value);

      // Only the display changed: the model got the server's one-line text.
      const [, second, third] = project.model.requests;
      expect(toolResultTexts(second!).at(-1)).toContain("report ready");
      expect(toolResultTexts(third!).at(-1)).toContain(INVENTORY_TEXT);
    } finally {
      term.kill();
    }
  });
});
