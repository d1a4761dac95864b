/**
 * HTTP servers on a machine without a usable keyring, in real Pi (both
 * lines): the default credential store is the OS keyring, and it must not
 * stand between the model and a server that needs no login. server-everything
 * runs over Streamable HTTP and over legacy SSE on random high ports (reached
 * at 127.0.0.1); the scripted model searches and calls a tool on each. A third
 * server answers 401 (test-kit's OAuth authorization server): it alone is
 * unavailable, with a message naming the store problem and its fix; and
 * `/mcp-auth` for it (over `--mode rpc`) fails with that message before any
 * authorization URL, registration or input dialog.
 *
 * How keytar is made to fail, for real — on any machine: these tests run
 * where keytar loads and, above all, where it does not (a fresh machine or
 * container without libsecret, the common case they are about):
 * - "keytar cannot be loaded": a preload passed as `NODE_OPTIONS=--require`
 *   replaces `process.dlopen` so opening `keytar.node` fails exactly as it
 *   does where the binding cannot load (no binary for the platform, or a
 *   library it needs missing): the package resolves, its native binding
 *   does not. Every route to keytar
 *   ends in dlopen, whichever loader resolves it. Checked on both lines: an
 *   ESM resolve hook passed with `--import` that throws for "keytar" takes
 *   effect too (the extension's `import("keytar")` reaches Node's ESM loader
 *   under Pi's jiti on both), but it fails earlier than a real install would
 *   and only for that one route. Each run checks that the 401 server's
 *   message says keytar is missing, which proves the preload took effect.
 * - "no D-Bus session bus": keytar as this machine has it, in a Pi process
 *   whose environment has no DBUS_SESSION_BUS_ADDRESS, DISPLAY or
 *   XDG_RUNTIME_DIR (runPi passes only what it lists), so libsecret cannot
 *   reach a session bus. Where keytar loads, the 401 server's message says
 *   there is no bus; where it does not (no libsecret), it says keytar did not
 *   load. CI has libsecret, so there the bus case is the one checked.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { writeFile } from "node:fs/promises";
import {
  createFixtureServer,
  keytarUnavailableReason,
  type OAuthMcpServer,
  type ServerEverythingHttp,
  serveOAuthProtectedMcp,
  startServerEverything,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const BLOCK_KEYTAR = `
"use strict";
// Loaded with NODE_OPTIONS=--require: keytar's native binding cannot be opened, as on a machine
// where it cannot load. Nothing else is touched.
const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  if (/[\\\\/]keytar[\\\\/].*\\.node$/.test(String(filename))) {
    throw new Error(String(filename) + ": cannot open shared object file: No such file or directory");
  }
  return dlopen.call(this, module, filename, ...rest);
};
`;

/** Sends `/mcp-auth docs` to Pi in RPC mode and collects notifications until the login fails or starts. */
async function mcpAuth(
  child: ChildProcessWithoutNullStreams,
): Promise<{ notes: string[]; inputs: string[]; output: string }> {
  const notes: string[] = [];
  const inputs: string[] = [];
  let output = "";
  child.stderr.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const timer = setTimeout(() => child.kill(), 60_000);
  try {
    send({ id: "login", type: "prompt", message: "/mcp-auth docs" });
    let buffered = "";
    for await (const data of child.stdout) {
      const chunk = (data as Buffer).toString("utf8");
      output += chunk;
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim().startsWith("{")) continue;
        const message = JSON.parse(line) as { type: string; id: string; method?: string; message?: string };
        if (message.type !== "extension_ui_request") continue;
        if (message.method === "notify") notes.push(message.message ?? "");
        if (message.method === "input") {
          inputs.push(message.message ?? "");
          send({ type: "extension_ui_response", id: message.id, cancelled: true });
        }
      }
      if (notes.some((n) => n.startsWith("OAuth: ") || n.includes("Open this URL"))) break;
    }
  } finally {
    clearTimeout(timer);
    child.kill();
  }
  return { notes, inputs, output };
}

const keytarMissing = keytarUnavailableReason();
if (keytarMissing && process.env.CI) {
  throw new Error(`@github/keytar must load in CI, the no-D-Bus case needs it: ${keytarMissing}`);
}

interface KeyringCase {
  name: string;
  /** Writes what the Pi process needs into the project and returns its extra environment. */
  env(root: string): Promise<NodeJS.ProcessEnv>;
  /** What the 401 server's message must say: the store problem and its fix. */
  says: RegExp[];
}

const FIX = /oauthCredentialStore to "encrypted-file" with PI_MCP_ADAPTER_OAUTH_FILE_KEY/;
const KEYTAR_NOT_LOADED = /needs the optional dependency @github\/keytar/;
const cases: KeyringCase[] = [
  {
    name: "keytar cannot be loaded",
    env: async (root) => {
      const preload = `${root}/block-keytar.cjs`;
      await writeFile(preload, BLOCK_KEYTAR);
      return { NODE_OPTIONS: `--require ${preload}` };
    },
    says: [KEYTAR_NOT_LOADED, /npm install --include=optional/, FIX],
  },
  {
    name: "no D-Bus session bus",
    env: async () => ({}),
    says: keytarMissing ? [KEYTAR_NOT_LOADED, FIX] : [/no D-Bus session bus/, FIX],
  },
];

describe("HTTP and SSE servers without a usable OS keyring", () => {
  let http: ServerEverythingHttp | undefined;
  let sse: ServerEverythingHttp | undefined;
  let as: OAuthMcpServer | undefined;

  beforeAll(async () => {
    [http, sse, as] = await Promise.all([
      startServerEverything("streamableHttp"),
      startServerEverything("sse"),
      serveOAuthProtectedMcp({ makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }) }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close(), as?.close()]);
  });

  describe.each(piHosts())("$label", (host) => {
    it.each(cases)("$name: search and call succeed over Streamable HTTP and SSE", async (keyring) => {
      await using project = await createPiProject({
        host,
        // The default store: no oauthCredentialStore setting.
        adapterConfig: {
          mcpServers: {
            web: { url: http?.url },
            legacy: { url: sse?.url, transport: "sse" },
            docs: { url: as?.url },
          },
        },
        steps: [
          { toolCall: { name: "mcp", arguments: { search: "sum" } } },
          { toolCall: { name: "mcp", arguments: { tool: "web_get_sum", args: { a: 2, b: 3 } } } },
          { toolCall: { name: "mcp", arguments: { tool: "legacy_get_sum", args: { a: 4, b: 5 } } } },
          { text: "Done." },
        ],
      });
      const env = await keyring.env(project.root);

      const run = await project.run("Add some numbers.", { env });

      expect(run.stderr).not.toMatch(/Failed to load extension|Error loading/i);
      expect(run.code, run.stderr).toBe(0);
      const { requests } = project.model;
      expect(requests).toHaveLength(4);
      const [search] = toolResultTexts(requests[1]!);
      expect(search).toContain("web_get_sum");
      expect(search).toContain("legacy_get_sum");
      expect(toolResultTexts(requests[2]!).at(-1)).toBe("The sum of 2 and 3 is 5.");
      expect(toolResultTexts(requests[3]!).at(-1)).toBe("The sum of 4 and 5 is 9.");

      // Only the server that wants a login is unavailable, and it says why and what to do.
      const docsLine = search?.split("\n").find((line) => line.startsWith("(server docs unavailable"));
      expect(docsLine, search).toBeDefined();
      expect(docsLine).toMatch(
        /needs an OAuth login, but the OS keyring credential store cannot be used here/,
      );
      for (const pattern of keyring.says) expect(docsLine).toMatch(pattern);
      expect(docsLine).toMatch(/Then run \/mcp-auth docs/);
      expect(search).not.toMatch(/server (web|legacy) unavailable/);
    });

    it.each(cases)("$name: /mcp-auth fails before the browser step, saying what to fix", async (keyring) => {
      await using project = await createPiProject({
        host,
        adapterConfig: { mcpServers: { docs: { url: as?.url } } },
      });
      const before = { authorize: as?.authorizeRequests.length, registrations: as?.registrations.length };
      const { notes, inputs, output } = await mcpAuth(project.rpc({ env: await keyring.env(project.root) }));

      const failure = notes.find((note) => note.startsWith('OAuth: Cannot log in to "docs": '));
      expect(failure, output).toBeDefined();
      for (const pattern of keyring.says) expect(failure).toMatch(pattern);
      expect(notes.some((note) => note.includes("Open this URL"))).toBe(false);
      expect(inputs).toEqual([]);
      expect(as?.authorizeRequests.length).toBe(before.authorize);
      expect(as?.registrations.length).toBe(before.registrations);
    });
  });
});
