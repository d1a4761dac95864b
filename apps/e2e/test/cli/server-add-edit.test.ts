/**
 * Adding and editing servers from inside real Pi (RPC mode answers the
 * editor dialog): `/mcp-adapter add` writes the user's mcp-adapter.json and
 * the session sees the server at once; `/mcp-adapter edit` opens the file in
 * Pi's editor, refuses a broken edit (file untouched) and applies a good
 * JSONC one live. A server shipped in a Pi package listed in Pi's settings
 * shows up too, as `<package>__<server>`. Nothing is started.
 */
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { recordedPids, stdioFixtureServerPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

describe.each(piHosts())("$label", (host) => {
  it("/mcp-adapter add and edit change the config and the session; a Pi package's server is listed", async () => {
    await using project = await createPiProject({
      host,
      steps: [{ toolCall: { name: "mcp", arguments: {} } }, { text: "done" }],
    });
    // A local Pi package with an MCP server, listed in Pi's own settings.
    const pack = project.join("packs", "docs-pack");
    await mkdir(pack, { recursive: true });
    await writeFile(
      path.join(pack, "package.json"),
      JSON.stringify({
        name: "docs-pack",
        pi: { mcp: { lookup: { command: process.execPath, args: ["./server.js"] } } },
      }),
    );
    await writeFile(path.join(project.agentDir, "settings.json"), JSON.stringify({ packages: [pack] }));

    const adapterFile = path.join(project.agentDir, "mcp-adapter.json");
    const child = project.rpc();
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const command = (text: string) => send({ id: text.slice(0, 20), type: "prompt", message: text });
    const notices: string[] = [];
    const editorPrefills: string[] = [];
    let fileAfterBrokenEdit = "";
    let goodEdit = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill(), 100_000);
    try {
      command(
        `/mcp-adapter add fixture --env "FIXTURE_PID_DIR=${project.pidDir}" -- ${process.execPath} ${stdioFixtureServerPath}`,
      );
      for await (const message of rpcMessages(child.stdout)) {
        if (message.type === "agent_end") break;
        if (message.type !== "extension_ui_request") continue;
        if (message.method === "editor") {
          const prefill = String(message.prefill ?? "");
          editorPrefills.push(prefill);
          // First a broken edit (a colon missing), then a good one: a comment, a rename, a trailing comma.
          if (editorPrefills.length > 1) {
            goodEdit = `// edited in Pi\n${prefill.replace('"fixture"', '"renamed"').replace(/\n}\n?$/, ",\n}\n")}`;
          }
          const value = editorPrefills.length === 1 ? prefill.replace('"command":', '"command"') : goodEdit;
          send({ type: "extension_ui_response", id: message.id, value });
        } else if (["select", "input", "confirm"].includes(message.method ?? "")) {
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        } else if (message.method === "notify") {
          const text = message.message ?? "";
          notices.push(text);
          if (text.startsWith('Added MCP server "fixture"')) command("/mcp-adapter edit");
          if (text.startsWith("Not saved:")) {
            fileAfterBrokenEdit = await readFile(adapterFile, "utf8");
            command("/mcp-adapter edit user");
          }
          if (text.startsWith("Saved ")) command("status");
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }

    expect(notices[0], stderr).toBe(
      `Added MCP server "fixture" to ${adapterFile}; applied to this session (not-connected).`,
    );
    expect(editorPrefills).toHaveLength(2);
    expect(editorPrefills[0]).toContain('"fixture"');
    // The broken edit is refused with its position, and the file is what `add` wrote.
    const broken = notices.find((n) => n.startsWith("Not saved:"));
    expect(broken).toMatch(
      /^Not saved: .*mcp-adapter\.json: invalid JSON at line \d+ column \d+: expected ":"/,
    );
    expect(broken).toContain("The file was not changed.");
    expect(fileAfterBrokenEdit).toBe(editorPrefills[0]);
    // The good edit (a comment and a trailing comma) is saved as typed and applied at once.
    expect(notices.find((n) => n.startsWith("Saved "))).toBe(
      `Saved ${adapterFile}; applied to this session (2 servers configured).`,
    );
    expect(await readFile(adapterFile, "utf8")).toBe(goodEdit);
    const statusRequest = project.model.requests.at(-1);
    const status = statusRequest ? toolResultTexts(statusRequest).join("\n") : "";
    expect(status).toContain("renamed: not-connected");
    expect(status).toContain("docs-pack__lookup: not-connected");
    expect(status).not.toContain("fixture:");
    expect(await recordedPids(project.pidDir)).toEqual([]);
  }, 120_000);

  it("/mcp-adapter disable keeps a 0600 project file holding a token at 0600", async () => {
    await using project = await createPiProject({ host });
    const file = path.join(project.dir, ".pi", "mcp-adapter.json");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { api: { url: "http://127.0.0.1:9/mcp", bearerToken: "tok" } } }),
    );
    await chmod(file, 0o600);
    const child = project.rpc();
    const notices: string[] = [];
    const timer = setTimeout(() => child.kill(), 60_000);
    try {
      child.stdin.write(
        `${JSON.stringify({ id: "off", type: "prompt", message: "/mcp-adapter disable api" })}\n`,
      );
      for await (const message of rpcMessages(child.stdout)) {
        if (message.type !== "extension_ui_request") continue;
        if (message.method === "notify") {
          notices.push(message.message ?? "");
          if (message.message?.startsWith('MCP server "api" disabled')) break;
        } else if (message.method !== "setStatus" && message.method !== "setWidget") {
          child.stdin.write(
            `${JSON.stringify({ type: "extension_ui_response", id: message.id, cancelled: true })}\n`,
          );
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }
    expect(notices.at(-1)).toMatch(/^MCP server "api" disabled in /);
    expect(JSON.parse(await readFile(file, "utf8")).mcpServers.api).toEqual({
      url: "http://127.0.0.1:9/mcp",
      bearerToken: "tok",
      disabled: true,
    });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  }, 90_000);
});
