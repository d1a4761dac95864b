/**
 * `!command` bearer tokens in a long session: a real HTTP MCP server that
 * accepts only the token a file holds right now, a real shell command that
 * prints that file, and the token rotated under the session. The command
 * re-runs after its TTL (a manual clock) and at once on a 401, the request
 * is retried once, a failing command keeps the last good value, and the
 * token never shows in a warning or an error.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ConfiguredServer, prepareConnection } from "@pi-mcp-adapter/config";
import {
  createFixtureServer,
  createTempDir,
  manualClock,
  serveBearerProtectedMcp,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { headlessHost } from "../../src/index.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

let dir: TempDir;
let tokenFile: string;
let runsFile: string;
let failFile: string;
let command: string;
beforeEach(async () => {
  dir = await createTempDir();
  tokenFile = path.join(dir.path, "token");
  runsFile = path.join(dir.path, "runs");
  failFile = path.join(dir.path, "fail");
  await writeFile(tokenFile, "secret-token-1\n");
  // Prints the current token, counting its runs; fails while the `fail` file exists.
  command = `!echo run >> '${runsFile}'; test ! -e '${failFile}' && cat '${tokenFile}'`;
});
afterEach(() => dir[Symbol.asyncDispose]());

const runs = async () =>
  (await readFile(runsFile, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
const rotate = (token: string) => writeFile(tokenFile, `${token}\n`);

function server(url: string, extra: Partial<ConfiguredServer> = {}): ConfiguredServer {
  return {
    name: "docs",
    transport: "http",
    url,
    bearerToken: command,
    lifecycle: "lazy",
    protocol: "legacy",
    source: { file: "test", scope: "user" },
    layers: [],
    ...extra,
  } as unknown as ConfiguredServer;
}

describe("a !command bearer token in a long session", () => {
  it("re-runs the command after its TTL, once for many requests, and keeps the last value while it fails", async () => {
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const clock = manualClock();
    const warnings: string[] = [];
    const prepared = await prepareConnection(server(mcp.url, { secretTtlSec: 60 }), {
      now: clock.now,
      warn: (message) => warnings.push(message),
    });
    expect(await runs()).toBe(1);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcp.url), {
        requestInit: { headers: prepared.definition.headers },
        fetch: prepared.secretHeaders?.wrapFetch(),
      }),
    );
    try {
      // The SDK opens its GET listen stream after connecting; let it go out before the rotation.
      const deadline = Date.now() + 10_000;
      while (!mcp.requests.some((r) => r.method === "GET") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await rotate("secret-token-2");
      clock.advance(61_000);
      // Five requests at once after the TTL: the command runs once, before any of them is sent.
      await Promise.all(Array.from({ length: 5 }, () => client.listTools()));
      expect(await runs()).toBe(2);
      expect(mcp.requests.filter((r) => r.status === 401)).toEqual([]);

      // The command fails: the last good value is still sent, and the warning names no secret.
      await writeFile(failFile, "");
      clock.advance(61_000);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      expect(await runs()).toBe(3);
      expect(warnings).toEqual([
        expect.stringMatching(/MCP server "docs": the secret command for bearerToken exited with status 1/),
      ]);
      expect(warnings.join("\n")).not.toMatch(/secret-token/);
    } finally {
      await client.close();
    }
  });

  it("through the runtime: a rotated token gets a 401, the command re-runs at once and the call succeeds", async () => {
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const notices: string[] = [];
    const host = { ...headlessHost(), notify: (message: string) => void notices.push(message) };
    const runtime = await createRuntime({
      cwd: dir.path,
      host,
      config: { mcpServers: { docs: { url: mcp.url, bearerToken: command, lifecycle: "keep-alive" } } },
      metadataCacheFile: false,
    });
    const text = (outcome: { content: Array<{ type: string; text?: string }> }) =>
      outcome.content.map((c) => c.text ?? "").join("");
    try {
      expect(text(await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "a" } }))).toBe(
        '{"text":"a"}',
      );
      await rotate("secret-token-2");
      // Well inside the TTL: only the server's 401 says the token changed.
      expect(text(await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "b" } }))).toBe(
        '{"text":"b"}',
      );
      expect(mcp.requests.some((r) => r.status === 401 && r.authorization === "Bearer secret-token-1")).toBe(
        true,
      );
      expect(mcp.requests.filter((r) => r.method === "POST").at(-1)).toEqual({
        method: "POST",
        authorization: "Bearer secret-token-2",
        status: 200,
      });

      // A token the command cannot renew: the call fails, and the error names no token.
      await rotate("secret-token-3");
      await writeFile(failFile, "");
      const error = await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "c" } }).then(
        (outcome) => text(outcome),
        (e: unknown) => String(e),
      );
      expect(error).not.toMatch(/secret-token/);
      expect(notices.join("\n")).toMatch(/the secret command for bearerToken exited with status 1/);
      expect(notices.join("\n")).not.toMatch(/secret-token/);
      await rm(failFile);
    } finally {
      await runtime.shutdown();
    }
  });
});
