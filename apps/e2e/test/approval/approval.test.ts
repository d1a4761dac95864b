/**
 * Tool approval end to end, with `approveTools: ["delete_*"]` on a stdio
 * server: in `--mode rpc` the approval dialog reaches the client as an
 * `extension_ui_request`, "Deny" reaches the model as a denial and "Allow for
 * session" lets later calls through without asking; in `--mode json` (no UI)
 * the call fails closed with `approval_required` and never reaches the server.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { type ScriptStep, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject, type PiProjectOptions } from "../../src/pi-project.js";
import { runRpcPrompt, type UiRequest } from "../../src/rpc-messages.js";

// The SDK's ESM build (require.resolve finds the CommonJS one next to it).
const sdkEsm = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/sdk/server/index.js")),
  "..",
  "..",
  "esm",
);

/** A stdio server with `read_file` and `delete_file`; each delete is appended to `log`. */
function filesServer(log: string): string {
  const esm = (sub: string) => JSON.stringify(path.join(sdkEsm, sub));
  return `
import { appendFileSync } from "node:fs";
import { Server } from ${esm("server/index.js")};
import { StdioServerTransport } from ${esm("server/stdio.js")};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${esm("types.js")};
const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
const server = new Server({ name: "fs", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: "read_file", description: "Read a file", inputSchema: schema, annotations: { readOnlyHint: true } },
    { name: "delete_file", description: "Delete a file", inputSchema: schema, annotations: { destructiveHint: true } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const file = String(request.params.arguments?.path);
  if (request.params.name === "delete_file") {
    appendFileSync(${JSON.stringify(log)}, file + "\\n");
    return { content: [{ type: "text", text: "deleted " + file }] };
  }
  return { content: [{ type: "text", text: "contents of " + file }] };
});
await server.connect(new StdioServerTransport());
`;
}

const call = (tool: string, file: string): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool, args: { path: file } } },
});

/** A project with the files server in its user-level config, `approveTools: ["delete_*"]`. */
function filesProject(host: PiHost, steps: ScriptStep[]): PiProjectOptions {
  return {
    host,
    // A user-level config: no project trust prompt stands between the test and the server.
    adapterConfig: ({ join }) => ({
      mcpServers: {
        fs: { command: process.execPath, args: [join("fs-server.mjs")], approveTools: ["delete_*"] },
      },
    }),
    steps,
  };
}

/** Writes the files server's script into the project; returns the log its deletes go to. */
async function writeFilesServer(project: PiProject): Promise<string> {
  const log = project.join("deleted.log");
  await writeFile(project.join("fs-server.mjs"), filesServer(log));
  return log;
}

async function deletedFiles(log: string): Promise<string[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text.split("\n").filter(Boolean);
}

/** One prompt in RPC mode; each `select` dialog is answered with the next of `answers`, others dismissed. */
async function runRpc(project: PiProject, answers: string[]): Promise<{ selects: UiRequest[] }> {
  const shown = await runRpcPrompt(project.rpc(), "Tidy up the files.", (request) =>
    request.method === "select" ? answers.shift() : undefined,
  );
  return { selects: shown.filter((request) => request.method === "select") };
}

describe.each(piHosts())("$label", (host) => {
  it("--mode rpc: asks through an extension UI dialog; Deny reaches the model, Allow for session sticks", async () => {
    await using project = await createPiProject(
      filesProject(host, [
        call("fs_read_file", "notes.txt"),
        call("fs_delete_file", "a.txt"),
        call("fs_delete_file", "b.txt"),
        call("fs_delete_file", "c.txt"),
        { text: "Done." },
      ]),
    );
    const log = await writeFilesServer(project);
    const { model } = project;

    const { selects } = await runRpc(project, ["Deny", "Allow for session"]);

    expect(selects).toHaveLength(2);
    expect(selects[0]!.options).toEqual([
      "Allow once",
      "Allow for session",
      "Allow this server for the session",
      "Deny",
    ]);
    expect(selects[0]!.title).toContain("Allow MCP tool fs_delete_file (server fs, tool delete_file)?");
    expect(selects[0]!.title).toContain('{"path":"a.txt"}');
    expect(model.requests).toHaveLength(5);
    const results = toolResultTexts(model.requests[4]!);
    expect(results[0]).toBe("contents of notes.txt");
    expect(results[1]).toContain('"error":"denied"');
    expect(results[1]).toContain("the user denied it");
    expect(results[2]).toBe("deleted b.txt");
    expect(results[3]).toBe("deleted c.txt");
    expect(await deletedFiles(log)).toEqual(["b.txt", "c.txt"]);
  });

  it("--mode json (no UI): a call needing approval fails closed with approval_required", async () => {
    await using project = await createPiProject(
      filesProject(host, [
        call("fs_delete_file", "a.txt"),
        call("fs_read_file", "notes.txt"),
        { text: "I need your approval." },
      ]),
    );
    const log = await writeFilesServer(project);
    const { model } = project;

    const run = await project.run("Delete a.txt.");

    expect(run.code, run.stderr).toBe(0);
    const results = toolResultTexts(model.requests[2]!);
    expect(JSON.parse(results[0]!)).toMatchObject({
      error: "approval_required",
      server: "fs",
      tool: "delete_file",
    });
    expect(results[1]).toBe("contents of notes.txt");
    expect(await deletedFiles(log)).toEqual([]);
  });
});
