// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use variable syntax literally
/**
 * A pi-mcp-adapter 2.36 project config in real Pi (both Pi lines): a server
 * whose requests are signed by a `requestHeadersCommand` program (2.36's
 * envelope on stdin, headers as JSON on stdout) whose environment uses
 * opencode's `{env:VAR}`, behind a real HTTP MCP server that accepts only the
 * token the program prints. The scripted model calls it; the call goes
 * through, no "2.x option … not supported" warning appears, and the token is
 * in none of Pi's output.
 */
import { writeFileSync } from "node:fs";
import {
  createFixtureServer,
  createTempDir,
  serveBearerProtectedMcp,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";

const SIGNER = `
const fs = require("node:fs");
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  if (request.version !== 1 || !request.url.endsWith("/mcp")) process.exit(2);
  const token = fs.readFileSync(process.env.TOKEN_FILE, "utf8").trim();
  process.stdout.write(JSON.stringify({ Authorization: "Bearer " + token }));
});
`;

describe.each(piHosts())("$label", (host) => {
  it("a 2.36 config with requestHeadersCommand and {env:VAR} connects and calls", async () => {
    await using dir = await createTempDir();
    const tokenFile = dir.join("token");
    const signer = dir.join("sign.cjs");
    writeFileSync(tokenFile, "migrated-secret-9\n");
    writeFileSync(signer, SIGNER);
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    await using project = await createPiProject({
      host,
      mcpServers: () => ({
        signed: {
          url: mcp.url,
          httpTransport: "streamable-http",
          requestHeadersCommand: {
            command: process.execPath,
            args: [signer],
            env: { TOKEN_FILE: "{env:SIGNED_TOKEN_FILE}" },
          },
        },
      }),
      allowProjectServers: true,
      steps: [
        { toolCall: { name: "mcp", arguments: { tool: "signed_echo", args: { text: "from 2.36" } } } },
        { toolCall: { name: "mcp", arguments: {} } },
        { text: "done" },
      ],
    });

    const run = await project.run("Echo once", { env: { SIGNED_TOKEN_FILE: tokenFile } });

    expect(run.code, run.stderr).toBe(0);
    const results = toolResultTexts(project.model.requests[2]!);
    expect(results[0]).toBe('{"text":"from 2.36"}');
    expect(results[1]).not.toMatch(/2\.x option|does not support/);
    expect(mcp.requests.at(-1)).toMatchObject({ authorization: "Bearer migrated-secret-9", status: 200 });
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/migrated-secret/);
  });
});
