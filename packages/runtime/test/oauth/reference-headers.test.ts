/**
 * pi-mcp-adapter 2.36 configs that authenticate with headers, connecting to
 * real HTTP MCP servers: `requestHeadersCommand` (a program that sees each
 * request and prints its headers, run for every request, so a rotated
 * credential is used at once) and `bearerTokenStore` (the token kept in the
 * credential store, bound to the server's URL). The secrets never show in a
 * notice or an error.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { storeBearerToken } from "@pi-mcp-adapter/oauth/store";
import {
  createFixtureServer,
  createTempDir,
  serveBearerProtectedMcp,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { headlessHost } from "../../src/index.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

/** A header program as 2.36 documents it: the request envelope on stdin, a JSON object of headers out. */
const HEADER_PROGRAM = `
const fs = require("node:fs");
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const body = Buffer.from(request.bodyBase64, "base64").toString("utf8");
  fs.appendFileSync(process.env.LOG_FILE, JSON.stringify({ v: request.version, method: request.method, url: request.url, body }) + "\\n");
  if (fs.existsSync(process.env.FAIL_FILE)) process.exit(3);
  const token = fs.readFileSync(process.env.TOKEN_FILE, "utf8").trim();
  process.stdout.write(JSON.stringify({ Authorization: "Bearer " + token }));
});
`;

let dir: TempDir;
beforeEach(async () => {
  dir = await createTempDir();
});
afterEach(() => dir[Symbol.asyncDispose]());

describe("requestHeadersCommand (2.36)", () => {
  it("signs every request with the program's headers, follows a rotation and fails closed", async () => {
    const tokenFile = dir.join("token");
    const log = dir.join("requests.jsonl");
    const program = dir.join("sign.cjs");
    await writeFile(tokenFile, "signed-secret-1\n");
    await writeFile(log, "");
    await writeFile(program, HEADER_PROGRAM);
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const notices: string[] = [];
    const runtime = await createRuntime({
      cwd: dir.path,
      host: { ...headlessHost(), notify: (message: string) => void notices.push(message) },
      config: {
        mcpServers: {
          signed: {
            url: mcp.url,
            lifecycle: "keep-alive",
            requestHeadersCommand: {
              command: process.execPath,
              args: [program],
              env: { LOG_FILE: log, TOKEN_FILE: tokenFile, FAIL_FILE: dir.join("fail") },
            },
          },
        },
      },
      metadataCacheFile: false,
    });
    try {
      expect(runtime.servers.problems).toEqual([]);
      const first = await runProxyRequest(runtime, { tool: "signed_echo", args: { text: "one" } });
      expect(textOf(first)).toBe('{"text":"one"}');

      await writeFile(tokenFile, "signed-secret-2\n");
      const second = await runProxyRequest(runtime, { tool: "signed_echo", args: { text: "two" } });
      expect(textOf(second)).toBe('{"text":"two"}');
      expect(mcp.requests.at(-1)).toMatchObject({ authorization: "Bearer signed-secret-2", status: 200 });
      // The program saw each request as sent: the envelope version, method, URL and exact body.
      const seen = (await readFile(log, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { v: number; method: string; url: string; body: string });
      const calls = seen.filter((r) => r.body.includes('"tools/call"'));
      expect(calls.map((r) => [r.v, r.method, r.url])).toEqual([
        [1, "POST", mcp.url],
        [1, "POST", mcp.url],
      ]);
      expect(JSON.parse(calls[1]?.body ?? "{}").params.arguments).toEqual({ text: "two" });

      await appendFile(dir.join("fail"), "");
      const failed = runProxyRequest(runtime, { tool: "signed_echo", args: { text: "three" } });
      await expect(failed).rejects.toThrow(/requestHeadersCommand exited with status 3/);
      const message = await failed.then(
        () => "",
        (error: Error) => `${error.message}\n${String(error.cause ?? "")}`,
      );
      expect(`${message}\n${notices.join("\n")}`).not.toMatch(/signed-secret/);
    } finally {
      await runtime.shutdown();
    }
  });

  it("reports a command that is not an object, or has no command, at its field", async () => {
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        mcpServers: {
          a: { url: "https://a.example.com/mcp", requestHeadersCommand: "sign-it" },
          b: { url: "https://b.example.com/mcp", requestHeadersCommand: { args: ["x"] } },
        },
      },
      metadataCacheFile: false,
    });
    try {
      const errors = runtime.servers.problems.filter((p) => p.severity === "error").map((p) => p.field);
      expect(errors).toEqual([
        "mcpServers.a.requestHeadersCommand",
        "mcpServers.b.requestHeadersCommand.command",
      ]);
    } finally {
      await runtime.shutdown();
    }
  });
});

describe("bearerTokenStore (2.36)", () => {
  it("sends the stored token to the URL it was stored for, and refuses another URL", async () => {
    const tokenFile = dir.join("token");
    await writeFile(tokenFile, "stored-secret-42\n");
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const runtime = await createRuntime({
      cwd: dir.path,
      config: {
        settings: { oauthCredentialStore: "memory" },
        mcpServers: {
          vault: { url: mcp.url, auth: "bearer", bearerTokenStore: true },
          moved: { url: `${mcp.url}?v=2`, bearerTokenStore: true },
        },
      },
      metadataCacheFile: false,
    });
    try {
      expect(runtime.servers.problems).toEqual([]);
      const store = runtime.oauth?.store;
      if (!store) throw new Error("the runtime has no credential store");
      await expect(runProxyRequest(runtime, { tool: "vault_echo", args: { text: "x" } })).rejects.toThrow(
        /no token is stored for it \(memory store\); run "pi-mcp-adapter token set vault"/,
      );
      await storeBearerToken(store, "vault", mcp.url, "stored-secret-42");
      await storeBearerToken(store, "moved", mcp.url, "stored-secret-42");
      await runtime.reconnect("vault");
      await runtime.reconnect("moved").catch(() => {}); // refused: see below
      const call = await runProxyRequest(runtime, { tool: "vault_echo", args: { text: "hi" } });
      expect(textOf(call)).toBe('{"text":"hi"}');
      expect(mcp.requests.at(-1)).toMatchObject({ authorization: "Bearer stored-secret-42", status: 200 });

      const refused = runProxyRequest(runtime, { tool: "moved_echo", args: { text: "x" } });
      await expect(refused).rejects.toThrow(/was stored for .*\/mcp, not .*\/mcp\?v=2; it is not sent/);
      await expect(refused).rejects.not.toThrow(/stored-secret/);
    } finally {
      await runtime.shutdown();
    }
  });
});
