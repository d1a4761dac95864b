// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * `requestHeadersCommand` on its own, with real programs (Node scripts) and a
 * real HTTP server that records what it got: the envelope on stdin, the
 * headers set last, `${VAR}` in the command, and each way a program can fail
 * — named in the error, which never holds what the program printed.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { type ConfiguredServer, prepareConnection } from "../../src/index.js";
import type { RequestHeadersCommand } from "../../src/layers/request-headers-entry.js";

async function recordingServer() {
  const seen: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    seen,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** A server whose requestHeadersCommand runs `script` with Node. */
function server(url: string, script: string, extra: Partial<RequestHeadersCommand> = {}): ConfiguredServer {
  return {
    name: "signed",
    transport: "http",
    url,
    lifecycle: "lazy",
    protocol: "legacy",
    source: { file: "/f.json", key: "mcpServers.signed" },
    scope: "user",
    layers: [],
    requestHeadersCommand: { command: process.execPath, args: ["-e", script], ...extra },
  };
}

const ECHO_ENVELOPE = `let i="";process.stdin.on("data",d=>i+=d).on("end",()=>{const r=JSON.parse(i);
process.stdout.write(JSON.stringify({"x-sig":r.method+" "+r.url+" "+Buffer.from(r.bodyBase64,"base64"),"content-type":"application/x-signed","x-who":process.env.WHO}))})`;

describe("requestHeadersCommand", () => {
  it("gets the request on stdin and its headers are set last, over the request's own", async () => {
    await using http = await recordingServer();
    const prepared = await prepareConnection(
      server(http.url, ECHO_ENVELOPE, { env: { WHO: "{env:WHO_VAR}" } }),
      {
        env: { WHO_VAR: "pi", PATH: process.env.PATH },
      },
    );
    const fetch = prepared.requestHeaders?.();
    if (!fetch) throw new Error("no requestHeaders wrapper");
    const response = await fetch(http.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.status).toBe(200);
    expect(http.seen[0]).toMatchObject({
      "x-sig": `POST ${http.url} {"jsonrpc":"2.0"}`,
      "content-type": "application/x-signed",
      "x-who": "pi",
    });
  });

  it.each([
    ["exits non-zero", "process.exit(4)", /requestHeadersCommand exited with status 4/],
    [
      "prints no JSON",
      'process.stdout.write("leaked-secret-1 is not json")',
      /printed something that is not JSON/,
    ],
    [
      "prints a list",
      'process.stdout.write(JSON.stringify(["leaked-secret-1"]))',
      /must print a JSON object/,
    ],
    [
      "prints a number value",
      'process.stdout.write(JSON.stringify({"x-a":1,"k":"leaked-secret-1"}))',
      /non-string value for header "x-a"/,
    ],
    [
      "prints a bad header name",
      'process.stdout.write(JSON.stringify({"bad name":"leaked-secret-1"}))',
      /invalid header name or value/,
    ],
    ["never finishes", "setInterval(() => {}, 1000)", /requestHeadersCommand timed out after 0.3 s/],
  ])("fails the request when the program %s, without showing its output", async (_what, script, reason) => {
    await using http = await recordingServer();
    // Only the program that never finishes meets a short limit; the others get the default 10 s (slow machines).
    const timeoutMs = script.startsWith("setInterval") ? 300 : undefined;
    const prepared = await prepareConnection(server(http.url, script, { timeoutMs }));
    const fetch = prepared.requestHeaders?.();
    const error = await fetch?.(http.url, { method: "POST", body: "{}" }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(reason);
    expect(error?.message).toMatch(/^MCP server "signed": /);
    expect(`${error?.message} ${String((error as { cause?: unknown })?.cause ?? "")}`).not.toMatch(
      /leaked-secret/,
    );
    expect(http.seen).toEqual([]);
  });

  it("names a variable the command uses that is not set, when connecting", async () => {
    await expect(
      prepareConnection(server("http://127.0.0.1:1/mcp", "", { args: ["$env:SIGN_KEY"] }), { env: {} }),
    ).rejects.toThrow('MCP server "signed": requestHeadersCommand.args.0 uses ${SIGN_KEY}, which is not set');
  });
});
