/**
 * Output guard end to end: a stdio server's tool returns 5 MB of text; the
 * model receives at most 50 KiB of it plus a line naming a spill file, and
 * that file (mode 0600, in a 0700 directory) holds all 5 MB. The file
 * outlives the session: after Pi (print mode) exits the user can open it,
 * and the session resumed with `--continue` still names it, so it must still
 * be there. Pi runs with TMPDIR inside the project, so the test's spill
 * files go with the project.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

// The SDK's ESM build (require.resolve finds the CommonJS one next to it).
const sdkEsm = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/server/index.js")),
  "..",
  "..",
  "esm",
);
const LINE = `${"résumé ".repeat(10)}123456789\n`; // 100 bytes in UTF-8, with two-byte characters
const LINES = 52_429; // 5,242,900 bytes

/** A stdio MCP server with one tool, `big_text`, that returns 5 MB of text. */
function bigTextServer(): string {
  const esm = (sub: string) => JSON.stringify(path.join(sdkEsm, sub));
  return `
import { Server } from ${esm("server/index.js")};
import { StdioServerTransport } from ${esm("server/stdio.js")};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${esm("types.js")};
const server = new Server({ name: "big", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: "big_text", description: "Return a very long text", inputSchema: { type: "object", properties: {} } }],
}));
server.setRequestHandler(CallToolRequestSchema, () => ({
  content: [{ type: "text", text: ${JSON.stringify(LINE)}.repeat(${LINES}) }],
}));
await server.connect(new StdioServerTransport());
`;
}

describe.each(piHosts())("$label", (host) => {
  it("caps a 5 MB tool result for the model, spills all of it to a private file, and keeps the file after Pi exits and on --continue", async () => {
    // Read while the session is still running: the model's next request is the moment the file must exist.
    let seen: { file: string; saved: string; mode: number; dirMode: number } | undefined;
    // What the resumed session's history names, and whether that file is there when the model reads it.
    let resumed: { files: string[]; present: boolean[] } | undefined;
    await using project = await createPiProject({
      host,
      // A user-level config: no project trust prompt stands between the test and the server.
      adapterConfig: ({ join }) => ({
        mcpServers: { big: { command: process.execPath, args: [join("big-server.mjs")] } },
      }),
      dirs: ["tmp", "sessions"],
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "big_text", args: {} } } },
        (request) => {
          const text = toolResultTexts(request)[0] ?? "";
          const file = /Full text saved to (\S+) — /.exec(text)?.[1];
          if (file) {
            seen = {
              file,
              saved: readFileSync(file, "utf8"),
              mode: statSync(file).mode & 0o777,
              dirMode: statSync(path.dirname(file)).mode & 0o777,
            };
          }
          return { text: "The output was long." };
        },
        (request) => {
          const files = toolResultTexts(request).flatMap((t) =>
            [...t.matchAll(/Full text saved to (\S+) — /g)].map((m) => m[1] as string),
          );
          resumed = { files, present: files.map((f) => existsSync(f)) };
          return { text: "It is still in that file." };
        },
      ],
    });
    const { model } = project;
    await writeFile(project.join("big-server.mjs"), bigTextServer());
    const env = { TMPDIR: project.join("tmp") };
    const sessions = ["--session-dir", project.join("sessions")];

    const run = await project.run("Show me the big text.", { mode: "text", env, sessionArgs: sessions });
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(2);
    const text = toolResultTexts(model.requests[1]!)[0] ?? "";
    expect(Buffer.byteLength(text)).toBeLessThan(50 * 1024 + 1024);
    expect(text.slice(0, 3 * LINE.length)).toBe(LINE.repeat(3));
    expect(text).toMatch(
      /\[Output truncated: showing 50\.0 KiB of 5\.0 MiB \(\d+ of 52429 lines\)\. Full text saved to (\S+) — read or grep that file for the rest\.\]/,
    );
    expect(seen, text.slice(-400)).toBeDefined();
    const { file, saved, mode, dirMode } = seen!;
    expect(path.relative(project.join("tmp"), file)).toMatch(
      /^pi-mcp-adapter-spill-\w+\/big-big_text-[0-9a-f]{8}\.txt$/,
    );
    expect(Buffer.byteLength(saved)).toBe(100 * LINES);
    expect(saved).toBe(LINE.repeat(LINES));
    expect(mode).toBe(0o600);
    expect(dirMode).toBe(0o700);
    // Pi has exited: the file the result named is still there, whole, for the user to open.
    expect(await readFile(file, "utf8")).toBe(saved);

    const again = await project.run("What was in that output?", {
      mode: "text",
      env,
      sessionArgs: [...sessions, "--continue"],
    });
    expect(again.code, again.stderr).toBe(0);
    expect(resumed).toEqual({ files: [file], present: [true] });
  });
});
