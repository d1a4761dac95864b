/**
 * A subset of the compatibility suite through real Pi on both lines:
 * filesystem, memory, everything and playwright (published, pinned) in the
 * user's config. The scripted model searches by a task description (and by
 * a request no tool serves, which search says plainly), reads
 * the file the test wrote, stores and reads back a memory entity, echoes
 * through everything and opens the test's page in chromium through
 * playwright, and sees the right tool results. Nothing the servers started
 * is left running once Pi has exited.
 */
import path from "node:path";
import { chromiumForTests, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { markedProcesses, serverEntry, writeCompatFiles } from "../../src/compat/compat-run.js";
import { COMPAT_SERVERS, type CompatPaths, NOTE_TEXT, PAGE_TITLE } from "../../src/compat/compat-servers.js";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const SUBSET = ["filesystem", "memory", "everything", "playwright"];
const mcp = (args: Record<string, unknown>) => ({ toolCall: { name: "mcp", arguments: args } });

describe.each(piHosts())("$label with published servers", (host) => {
  it("searches by a task, calls filesystem, memory, everything and playwright, sees their results, leaves nothing running", async () => {
    let compat: CompatPaths | undefined;
    const paths = (root: string): CompatPaths =>
      (compat ??= {
        // In the project: filesystem swaps its configured directories for the session's roots (the project).
        data: path.join(root, "project", "data"),
        scratch: path.join(root, "scratch"),
        chromium: chromiumForTests()?.launch.executablePath ?? "/usr/bin/chromium",
      });
    await using project = await createPiProject({
      host,
      adapterConfig: ({ root }) => ({
        mcpServers: Object.fromEntries(
          COMPAT_SERVERS.filter((s) => SUBSET.includes(s.name)).map((s) => [
            s.name,
            serverEntry(s, paths(root), path.basename(root)),
          ]),
        ),
      }),
      steps: [
        mcp({ search: "read a text file" }),
        mcp({ search: "cook a pasta dinner for four people" }),
        () => mcp({ tool: "filesystem_read_text_file", args: { path: path.join(compat!.data, "note.txt") } }),
        mcp({
          tool: "memory_create_entities",
          args: { entities: [{ name: "Ada", entityType: "person", observations: ["likes tea"] }] },
        }),
        mcp({ tool: "memory_open_nodes", args: { names: ["Ada"] } }),
        mcp({ tool: "everything_echo", args: { message: "compat through Pi" } }),
        () => mcp({ tool: "playwright_browser_navigate", args: { url: `file://${compat!.data}/page.html` } }),
        { text: "Done." },
      ],
    });
    await writeCompatFiles(paths(project.root));

    const run = await project.run("Read my note, remember that Ada likes tea, and echo a line.", {
      timeoutMs: 120_000,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(run.requests).toHaveLength(8);
    const [search, pasta, read, created, opened, echoed, page] = toolResultTexts(run.requests[7]!);
    const top5 = (search ?? "")
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .slice(0, 5);
    expect(
      top5.some((l) => l.startsWith("- filesystem_read_text_file:")),
      search,
    ).toBe(true);
    expect(search).toMatch(/^\d+ tools? match "read a text file":/);
    expect(pasta).toMatch(
      /^No strong match for "cook a pasta dinner for four people"\. Closest, each a weak match:/,
    );
    expect(pasta).toContain("mcp({})");
    expect(read).toBe(`${NOTE_TEXT}\n`); // the file as written, newline included
    expect(created).toMatch(/"name": ?"Ada"/);
    expect(opened).toMatch(/likes tea/);
    expect(echoed).toBe("Echo: compat through Pi");
    expect(page).toContain(`Page Title: ${PAGE_TITLE}`); // read by the real chromium

    await expect
      .poll(async () => [...(await markedProcesses(path.basename(project.root))).values()].flat())
      .toEqual([]);
  });
});
