/**
 * OAuth in real Pi: an HTTP MCP server behind a loopback authorization
 * server. `/mcp-auth docs` over `--mode rpc` shows the authorization URL and
 * finishes with the paste flow (the address the browser ends on, typed into
 * the input dialog); the next model turn's call goes through with the stored
 * token; a second Pi process reuses the stored token with no new login.
 * Credentials live in the encrypted-file store, and no token reaches Pi's
 * output or any file in plaintext.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import {
  createFixtureServer,
  type OAuthMcpServer,
  type ScriptStep,
  serveOAuthProtectedMcp,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { rpcMessages } from "../../src/rpc-messages.js";

const echo = (text: string): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool: "docs_echo", args: { text } } },
});

interface UiRequest {
  type: string;
  id: string;
  method?: string;
  message?: string;
  title?: string;
}

/**
 * Runs `/mcp-auth docs` in RPC mode, plays the browser (the authorization
 * server approves at once) and pastes where it redirects; then prompts one
 * model turn. Returns the notifications Pi's client saw.
 */
async function loginAndCall(
  project: PiProject,
  as: OAuthMcpServer,
  env: NodeJS.ProcessEnv,
): Promise<{ notes: string[]; inputs: string[]; output: string }> {
  const child = project.rpc({ env });
  const notes: string[] = [];
  const inputs: string[] = [];
  let output = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const timer = setTimeout(() => child.kill(), 90_000);
  let authorizationUrl: string | undefined;
  try {
    send({ id: "login", type: "prompt", message: "/mcp-auth docs" });
    let ended = false;
    for await (const rpc of rpcMessages(child.stdout, (text) => {
      output += text;
    })) {
      const message = rpc as UiRequest;
      if (message.type === "extension_ui_request" && message.method === "notify") {
        const note = message.message ?? "";
        notes.push(note);
        authorizationUrl ??= note.split("\n").find((l) => l.startsWith("http"));
        if (note.startsWith('Logged in to "docs"')) {
          send({ id: "turn", type: "prompt", message: "Echo hello through docs." });
        }
      } else if (message.type === "extension_ui_request" && message.method === "input") {
        inputs.push(message.title ?? "");
        if (!authorizationUrl) throw new Error(`input asked before the URL was shown: ${notes.join(" | ")}`);
        // The browser's job: approve, and land on the (unreachable, here unused) loopback address.
        const landedOn = await as.approve(authorizationUrl);
        send({ type: "extension_ui_response", id: message.id, value: landedOn });
      } else if (message.type === "extension_ui_request" && message.method !== "setStatus") {
        if (["select", "confirm", "editor"].includes(message.method ?? "")) {
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        }
      } else if (message.type === "agent_end") ended = true;
      if (ended) break;
    }
    if (!ended) throw new Error(`Pi ended before agent_end:\n${notes.join("\n")}\n${stderr}`);
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  return { notes, inputs, output: output + stderr };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe.each(piHosts())("$label", (host) => {
  it("/mcp-auth over --mode rpc logs in by paste; the next turn and a new Pi process use the stored token", async () => {
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { oauthCredentialStore: "encrypted-file" },
        mcpServers: { docs: { url: as.url } },
      },
      steps: [echo("first"), { text: "Done." }, echo("second"), { text: "Done again." }],
    });
    const { model } = project;
    const env = { PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64") };

    const login = await loginAndCall(project, as, env);

    expect(login.inputs).toHaveLength(1);
    expect(login.notes.some((n) => n.includes("Open this URL to authorize"))).toBe(true);
    expect(login.notes).toContain('Logged in to "docs"');
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizeRequests).toHaveLength(1);
    expect(as.tokenRequests.map((r) => r.get("grant_type"))).toEqual(["authorization_code"]);
    expect(model.requests).toHaveLength(2);
    expect(toolResultTexts(model.requests[1]!)).toEqual(['{"text":"first"}']);
    const bearer = as.mcpAuthorizations.filter((a) => a.startsWith("Bearer "));
    expect(bearer.length).toBeGreaterThan(0);

    // A new Pi process: the stored token is used as is — no registration, login or token request.
    const second = await project.run("Echo again.", { env });
    expect(second.code, second.stderr).toBe(0);
    expect(model.requests).toHaveLength(4);
    expect(toolResultTexts(model.requests[3]!)).toEqual(['{"text":"second"}']);
    expect(as.registrations).toHaveLength(1);
    expect(as.authorizeRequests).toHaveLength(1);
    expect(as.tokenRequests).toHaveLength(1);

    // Secrets stay secret: no token in Pi's output, and none in any file written in plaintext.
    const token = bearer[0]!.slice("Bearer ".length);
    expect(login.output).not.toContain(token);
    expect(second.stdout + second.stderr).not.toContain(token);
    for (const file of await filesUnder(project.root)) {
      expect(await readFile(file, "utf8"), file).not.toContain(token);
    }
  });
});
