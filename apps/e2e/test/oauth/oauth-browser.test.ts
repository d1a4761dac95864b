/**
 * Logins open the browser where one exists, and a login that finishes by
 * itself reaches the agent. No real browser can run here: a stand-in
 * `xdg-open` on PATH (with `DISPLAY` set, so the adapter thinks a desktop
 * exists) records the URL and does what a browser does — follows the
 * authorization server's redirect to the adapter's loopback callback (the
 * test authorization server approves at once).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { createFixtureServer, serveOAuthProtectedMcp, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { extensionDir, type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const cli = path.join(extensionDir, "dist", "cli", "main.js");

/** Puts the stand-in browser in `<root>/bin`; returns the env that makes it the opener, and its log. */
async function standInBrowser(project: PiProject, host: PiHost) {
  const bin = project.join("bin");
  const log = project.join("browser.log");
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, "browser.mjs"),
    `const res = await fetch(process.argv[2], { redirect: "manual" });
const landing = res.headers.get("location");
if (landing) await fetch(landing);
`,
  );
  const opener = path.join(bin, "xdg-open");
  await writeFile(
    opener,
    `#!/bin/sh\nprintf '%s\\n' "$1" >> "${log}"\nexec node "${bin}/browser.mjs" "$1"\n`,
  );
  await chmod(opener, 0o755);
  const env = {
    PATH: `${bin}:${path.dirname(host.node)}:${process.env.PATH ?? ""}`,
    DISPLAY: ":0",
    PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64"),
  };
  return { env, opened: async () => (await readFile(log, "utf8")).split("\n").filter(Boolean) };
}

async function oauthProject(host: PiHost, steps: Parameters<typeof createPiProject>[0]["steps"] = []) {
  const as = await serveOAuthProtectedMcp({
    makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
  });
  const project = await createPiProject({
    host,
    adapterConfig: {
      settings: { oauthCredentialStore: "encrypted-file" },
      mcpServers: { docs: { url: as.url } },
    },
    steps,
  });
  return { as, project };
}

describe("pi-mcp-adapter auth (CLI)", () => {
  it("opens the login page in the browser and finishes when the browser reaches the callback", async () => {
    const [host] = piHosts();
    const { as, project } = await oauthProject(host!);
    await using _as = as;
    await using _project = project;
    const browser = await standInBrowser(project, host!);

    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, "auth", "docs"], {
      cwd: project.dir,
      env: { ...browser.env, HOME: project.home, PI_CODING_AGENT_DIR: project.agentDir },
      timeout: 60_000,
    });
    expect(stdout).toContain('Authorized "docs".');
    expect(stderr).toContain('Open this URL to authorize "docs"');
    const opened = await browser.opened();
    expect(opened).toHaveLength(1);
    expect(stderr).toContain(opened[0]);
    expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code"]);
  });
});

describe.each(piHosts())("$label", (host) => {
  it("/mcp-auth opens the browser and finishes when it reaches the callback, nothing pasted", async () => {
    const { as, project } = await oauthProject(host);
    await using _as = as;
    await using _project = project;
    const browser = await standInBrowser(project, host);

    const child = project.rpc({ env: browser.env });
    const timer = setTimeout(() => child.kill(), 90_000);
    const notes: string[] = [];
    try {
      child.stdin.write(`${JSON.stringify({ id: "login", type: "prompt", message: "/mcp-auth docs" })}\n`);
      for await (const message of rpcMessages(child.stdout)) {
        // The paste dialog is left open: the browser finishing the login dismisses it.
        if (message.type === "extension_ui_request" && message.method === "notify") {
          notes.push(message.message ?? "");
          if (message.message === 'Logged in to "docs"') break;
        }
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }
    expect(notes).toContain('Logged in to "docs"');
    const opened = await browser.opened();
    expect(opened).toHaveLength(1);
    expect(notes.some((n) => n.includes(opened[0]!))).toBe(true);
  });

  it("auth-start opens the browser; the login finishing by itself starts a turn that tells the agent", async () => {
    const { as, project } = await oauthProject(host, [
      { toolCall: { name: "mcp", arguments: { action: "auth-start", server: "docs" } } },
      { text: "Waiting for you to log in." },
      { toolCall: { name: "mcp", arguments: { tool: "docs_echo", args: { text: "after login" } } } },
      { text: "Done." },
    ]);
    await using _as = as;
    await using _project = project;
    const browser = await standInBrowser(project, host);

    const child = project.rpc({ env: browser.env });
    const timer = setTimeout(() => child.kill(), 90_000);
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      send({ id: "p", type: "prompt", message: "Log in to docs, then echo." });
      for await (const message of rpcMessages(child.stdout)) {
        if (
          message.type === "extension_ui_request" &&
          ["select", "confirm", "input"].includes(message.method ?? "")
        ) {
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        }
        if (message.type === "agent_end" && project.model.requests.length >= 4) break;
      }
    } finally {
      clearTimeout(timer);
      child.kill();
    }

    const requests = project.model.requests;
    expect(toolResultTexts(requests[1]!)[0]).toContain(
      'Ask the user to open this URL and approve access for "docs"',
    );
    expect(await browser.opened()).toHaveLength(1);
    const told = JSON.stringify(requests[2]?.messages.at(-1));
    expect(told).toContain('Logged in to MCP server \\"docs\\": its tools can be called now.');
    expect(toolResultTexts(requests[3]!).at(-1)).toBe('{"text":"after login"}');
  });
});
