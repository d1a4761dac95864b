/**
 * A `!command` bearer token rotated in the middle of a Pi session (both Pi
 * lines): a real HTTP MCP server accepts only the token a file holds now, the
 * command prints that file, and the scripted model calls the server, then —
 * after the token was rotated — calls it again on the same keep-alive
 * connection. The second call gets a 401, the command runs again at once, and
 * the call succeeds; the token never shows in Pi's output.
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

describe.each(piHosts())("$label", (host) => {
  it("a rotated !command bearer token is fetched again on the 401 and the call goes through", async () => {
    await using dir = await createTempDir();
    const tokenFile = dir.join("token");
    writeFileSync(tokenFile, "rotating-token-1\n");
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const call = (text: string) => ({
      toolCall: { name: "mcp", arguments: { tool: "docs_echo", args: { text } } },
    });
    await using project = await createPiProject({
      host,
      mcpServers: () => ({
        docs: { url: mcp.url, bearerToken: `!cat '${tokenFile}'`, lifecycle: "keep-alive" },
      }),
      allowProjectServers: true,
      steps: [
        call("first"),
        () => {
          writeFileSync(tokenFile, "rotating-token-2\n");
          return call("second");
        },
        { text: "done" },
      ],
    });

    const run = await project.run("Echo twice");

    expect(run.code, run.stderr).toBe(0);
    expect(toolResultTexts(project.model.requests[2]!)).toEqual(['{"text":"first"}', '{"text":"second"}']);
    const posts = mcp.requests.filter((r) => r.method === "POST");
    expect(posts.some((r) => r.status === 401 && r.authorization === "Bearer rotating-token-1")).toBe(true);
    expect(posts.at(-1)).toMatchObject({ authorization: "Bearer rotating-token-2", status: 200 });
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/rotating-token/);
  });
});
