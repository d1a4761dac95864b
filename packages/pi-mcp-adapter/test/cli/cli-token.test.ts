/**
 * `pi-mcp-adapter token set|show|clear` as a 2.36 user runs it, against a
 * real bearer-protected HTTP MCP server: the token piped on stdin goes into
 * the encrypted-file credential store, a `bearerTokenStore: true` server
 * then connects with it, `show` masks it, `clear` deletes it. The token never
 * appears in any output, and is refused on the command line.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createFixtureServer, createTempDir, serveBearerProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const TOKEN = "tok-2f1c9a7e5b3d4c8aSECRET";

/** The CLI in a child process (the server answers from this one), with `input` on its stdin. */
async function run(cwd: string, args: string[], input = "", approve = true) {
  const flags = approve ? ["--approve-project"] : [];
  const child = spawn(process.execPath, [cli, "--cwd", cwd, ...flags, ...args], {
    env: {
      ...process.env,
      PI_CODING_AGENT_DIR: `${cwd}/agent`,
      PI_MCP_ADAPTER_OAUTH_FILE_KEY: "0123456789abcdef".repeat(4),
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdin.end(input);
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

describe("pi-mcp-adapter token", () => {
  it("sets a piped token, connects a bearerTokenStore server with it, shows it masked and clears it", async () => {
    await using dir = await createTempDir();
    const tokenFile = dir.join("server-token");
    await writeFile(tokenFile, TOKEN);
    await using mcp = await serveBearerProtectedMcp({
      tokenFile,
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        settings: { oauthCredentialStore: "encrypted-file" },
        mcpServers: { vault: { url: mcp.url, auth: "bearer", bearerTokenStore: true } },
      }),
    );
    const outputs: string[] = [];
    const step = async (args: string[], input?: string) => {
      const result = await run(dir.path, args, input);
      outputs.push(result.stdout, result.stderr);
      return result;
    };

    const before = await step(["call", "vault_echo", '{"text":"x"}']);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain(
      'no token is stored for it (encrypted-file store); run "pi-mcp-adapter token set vault"',
    );

    const onCommandLine = await step(["token", "set", "vault", TOKEN]);
    expect(onCommandLine.code).not.toBe(0);
    expect(onCommandLine.stderr).toContain("never from the command line");

    const set = await step(["token", "set", "vault"], `${TOKEN}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain(`Stored the token for "vault" (encrypted-file store), bound to ${mcp.url}`);

    const call = await step(["call", "vault_echo", '{"text":"hi"}']);
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('{"text":"hi"}');
    expect(mcp.requests.at(-1)).toMatchObject({ authorization: `Bearer ${TOKEN}`, status: 200 });

    const show = await step(["token", "show", "vault"]);
    expect(show.stdout).toContain(`"vault": token ****CRET stored for ${mcp.url} (encrypted-file store)`);
    const json = await step(["--json", "token", "show", "vault"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ server: "vault", stored: true, masked: "****CRET" });

    const clear = await step(["token", "clear", "vault"]);
    expect(clear.stdout).toContain('Deleted the stored token for "vault".');
    expect((await step(["token", "show", "vault"])).stdout).toContain('No token stored for "vault"');

    // The token is in no output, and the store on disk holds it encrypted only.
    expect(outputs.join("\n")).not.toContain(TOKEN.slice(0, 12));
    const files = await readdir(dir.join("agent"), { recursive: true, withFileTypes: true });
    const written = files.filter((f) => f.isFile()).map((f) => path.join(f.parentPath, f.name));
    expect(written.length).toBeGreaterThan(0);
    for (const file of written) expect(await readFile(file, "latin1")).not.toContain(TOKEN.slice(0, 12));
  });

  it("names what is wrong: usage, an unknown server, a server without a url, empty input", async () => {
    await using dir = await createTempDir();
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        settings: { oauthCredentialStore: "encrypted-file" },
        mcpServers: { local: { command: "node", args: ["-v"] } },
      }),
    );
    expect((await run(dir.path, ["token", "rotate", "x"])).stderr).toContain(
      "usage: pi-mcp-adapter token set|show|clear <server>",
    );
    expect((await run(dir.path, ["token", "set", "nope"], "t\n")).stderr).toContain(
      'No MCP server named "nope" is configured',
    );
    expect((await run(dir.path, ["token", "set", "local"], "t\n")).stderr).toContain(
      '"local" is not an HTTP server; a bearer token needs a url',
    );
    await writeFile(
      dir.join(".mcp.json"),
      JSON.stringify({
        settings: { oauthCredentialStore: "encrypted-file" },
        mcpServers: { web: { url: "https://web.example.com/mcp", bearerTokenStore: true } },
      }),
    );
    expect((await run(dir.path, ["token", "set", "web"], "  \n")).stderr).toContain(
      'No token given for "web": the input was empty',
    );
    expect((await run(dir.path, ["token", "set", "web"], "t\n", false)).stderr).toContain(
      '"web" is a project server awaiting approval: run "pi-mcp-adapter trust web" first',
    );
  });
});
