/**
 * Servers other extensions register, through the real Pi CLI: Pi 1.6's
 * `pi.registerMcpServer()` while its built-in MCP is off, and the
 * `pi-mcp-adapter:runtime-register:v1` event on both Pi lines. A second
 * extension file (loaded with `-e`) registers server-everything; the scripted
 * model calls its `get-sum` through `mcp`, then a tool of that extension
 * takes the server away again, live.
 */
import { readFile, writeFile } from "node:fs/promises";
import { type ChatRequest, recordedPids, toolResultTexts, waitForExit } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { everythingWrapperScript, stdioFixtureEntry } from "../../src/fixtures.js";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";

const [olderPi, currentPi] = piHosts() as [PiHost, PiHost];

/** The steps: sum through the proxy, drop the server (the extension's tool), then status. */
const SUM_DROP_STATUS = [
  { toolCall: { name: "mcp", arguments: { tool: "everything_get-sum", args: { a: 2, b: 3 } } } },
  { toolCall: { name: "drop_everything", arguments: {} } },
  { toolCall: { name: "mcp", arguments: {} } },
  { text: "done" },
];

/**
 * What `SUM_DROP_STATUS` must show: get-sum answered through `mcp`, the server gone from
 * status after the drop, and its one process ended.
 */
async function expectSumThenGone(project: PiProject, requests: ChatRequest[]): Promise<void> {
  expect(toolResultTexts(requests[1]!)[0]).toContain("The sum of 2 and 3 is 5");
  expect(toolResultTexts(requests[3]!)[2]).not.toContain("everything");
  const pids = await recordedPids(project.pidDir);
  expect(pids).toHaveLength(1);
  expect(await waitForExit(pids)).toEqual([]);
}

/** A tool of the registering extension that runs `body` (JS) and answers "dropped". */
function dropTool(body: string): string {
  return `pi.registerTool({
    name: "drop_everything",
    label: "Drop everything",
    description: "Removes the everything MCP server",
    parameters: { type: "object", properties: {} },
    async execute() {
      ${body}
      return { content: [{ type: "text", text: "dropped" }], details: {} };
    },
  });`;
}

/** server-everything on stdio, recording its pid in the project's pid dir. */
async function everythingEntry(project: PiProject) {
  const script = project.join("everything.mjs");
  await writeFile(script, everythingWrapperScript());
  return { command: process.execPath, args: [script], env: { FIXTURE_PID_DIR: project.pidDir } };
}

/** Writes an extension file into the project root and returns its path. */
async function writeExtension(project: PiProject, name: string, source: string): Promise<string> {
  const file = project.join(name);
  await writeFile(file, source);
  return file;
}

/** `registrar.ts`: an extension whose factory runs `body` (with `pi` in scope). */
function registrar(project: PiProject, body: string): Promise<string> {
  return writeExtension(project, "registrar.ts", `export default function (pi: any) {\n  ${body}\n}\n`);
}

/** Pi 1.6 with `registerMcpServer(name, config)` in a second extension: the text of `mcp({})`. */
async function statusWithRegistration(
  name: string,
  config: unknown,
  extraArgs: string[] = [],
): Promise<{
  status: string;
  extension: string;
}> {
  await using project = await createPiProject({
    host: currentPi,
    steps: [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }],
  });
  const extension = await registrar(
    project,
    `pi.registerMcpServer(${JSON.stringify(name)}, ${JSON.stringify(config)});`,
  );
  const run = await project.run("status?", { extraArgs: [...extraArgs, "-e", extension] });
  expect(run.code, run.stderr).toBe(0);
  return { status: toolResultTexts(run.requests[1]!)[0] ?? "", extension };
}

describe("pi.registerMcpServer() on Pi 1.6 with the built-in MCP off", () => {
  it("connects a registered server lazily, calls its get-sum through mcp, and unregisters it live", async () => {
    await using project = await createPiProject({ host: currentPi, steps: SUM_DROP_STATUS });
    const entry = await everythingEntry(project);
    const extension = await registrar(
      project,
      `pi.registerMcpServer("everything", ${JSON.stringify(entry)});\n${dropTool('pi.unregisterMcpServer("everything");')}`,
    );

    const run = await project.run("what is 2 + 3?", { extraArgs: ["-e", extension] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("no loaded extension connects MCP servers");
    await expectSumThenGone(project, run.requests);
  });

  it("declares the tools a registration exposes directly (Pi's toolExposure) in the first request", async () => {
    await using project = await createPiProject({
      host: currentPi,
      steps: [{ toolCall: { name: "everything_get_sum", arguments: { a: 2, b: 3 } } }, { text: "5" }],
    });
    const entry = { ...(await everythingEntry(project)), toolExposure: { "get-sum": "direct" } };
    const extension = await registrar(
      project,
      `pi.registerMcpServer("everything", ${JSON.stringify(entry)});`,
    );

    const run = await project.run("what is 2 + 3?", { extraArgs: ["-e", extension] });
    expect(run.code, run.stderr).toBe(0);
    const declared = run.requests[0]?.tools?.map((t) => t.function.name) ?? [];
    expect(declared.filter((name) => name.startsWith("everything_"))).toEqual(["everything_get_sum"]);
    expect(toolResultTexts(run.requests[1]!)[0]).toContain("The sum of 2 and 3 is 5");
  });

  it("a file-configured server of the same name wins; status lists the registration as overridden", async () => {
    await using project = await createPiProject({
      host: currentPi,
      mcpServers: ({ pidDir }) => ({ everything: stdioFixtureEntry(pidDir) }),
      allowProjectServers: true,
      steps: [
        { toolCall: { name: "mcp", arguments: {} } },
        { toolCall: { name: "mcp", arguments: { tool: "everything_whoami" } } },
        { text: "done" },
      ],
    });
    const extension = await registrar(
      project,
      'pi.registerMcpServer("everything", { command: "never-started", lifecycle: "eager" });',
    );

    const run = await project.run("who?", { extraArgs: ["-e", extension] });
    expect(run.code, run.stderr).toBe(0);
    const [status] = toolResultTexts(run.requests[1]!);
    expect(status).toContain(`registered by extension ${extension}`);
    expect(status).toContain("overridden");
    const whoami = toolResultTexts(run.requests[2]!)[1];
    expect(whoami).toMatch(/^pid \d+$/);
  });

  it("an invalid registration is skipped with a warning that names the extension", async () => {
    const { status, extension } = await statusWithRegistration("broken", {
      command: "x",
      lifecycle: "sometimes",
    });
    expect(status).toContain(`error: <registered by extension ${extension}>: mcpServers.broken.lifecycle`);
  });

  it("leaves registrations to Pi's built-in MCP when it is loaded", async () => {
    const { status } = await statusWithRegistration("everything", { command: "never-started" }, [
      "-e",
      "builtin:mcp",
    ]);
    expect(status).toContain("MCP");
    expect(status).not.toContain("everything");
  });
});

describe.each([olderPi, currentPi])("pi-mcp-adapter:runtime-register:v1 on $label", (host) => {
  it("registers over the event bus, answers at once, and dispose() removes the server live", async () => {
    await using project = await createPiProject({ host, steps: SUM_DROP_STATUS });
    const entry = await everythingEntry(project);
    const answers = project.join("answers.json");
    const extension = await writeExtension(
      project,
      "registrar.ts",
      `import { writeFileSync } from "node:fs";
export default function (pi: any) {
  let registration: any;
  pi.on("session_start", () => {
    const good: any = { version: 1, name: "everything", definition: ${JSON.stringify(entry)} };
    pi.events.emit("pi-mcp-adapter:runtime-register:v1", good);
    registration = good.result?.ok ? good.result.registration : undefined;
    const bad: any = { version: 1, name: "bad", definition: { url: "ftp://nowhere" } };
    pi.events.emit("pi-mcp-adapter:runtime-register:v1", bad);
    const again: any = { version: 1, name: "everything", definition: ${JSON.stringify(entry)} };
    pi.events.emit("pi-mcp-adapter:runtime-register:v1", again);
    writeFileSync(${JSON.stringify(answers)}, JSON.stringify([good, bad, again].map((r) => r.result && {
      ok: r.result.ok, error: r.result.error?.message,
    })));
  });
  ${dropTool("await registration.dispose();")}
}
`,
    );

    const run = await project.run("what is 2 + 3?", { extraArgs: ["-e", extension] });
    expect(run.code, run.stderr).toBe(0);
    const [good, bad, again] = JSON.parse(await readFile(answers, "utf8")) as {
      ok: boolean;
      error?: string;
    }[];
    expect(good).toEqual({ ok: true });
    expect(bad?.ok).toBe(false);
    expect(bad?.error).toContain('mcpServers.bad.url: expected an http(s) URL, found "ftp://nowhere"');
    expect(again).toEqual({
      ok: false,
      error:
        'pi-mcp-adapter:runtime-register:v1: MCP server "everything" is already registered by another extension',
    });
    await expectSumThenGone(project, run.requests);
  });
});
