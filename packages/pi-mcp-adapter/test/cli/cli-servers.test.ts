// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * `add`, `remove` and `get`, and the file modes of every command that
 * rewrites a config file, run as users run them: the built bin under plain
 * Node on config files written by hand (comments, odd indentation), with
 * the untouched parts compared byte for byte.
 */
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliMachine } from "./cli-machine.js";

const mode = async (file: string) => (await stat(file)).mode & 0o777;

const HAND_WRITTEN = `{
\t// tabs, comments and a trailing comma, as a person left them
\t"settings": { "toolPrefix": "short" }, /* keep */
\t"mcpServers": {
\t\t"docs": { "url": "https://docs.example.com/mcp" },
\t},
}
`;

describe("pi-mcp-adapter add / remove / get", () => {
  it("add writes one entry and leaves every other byte of the file; the mode stays 0600", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    await writeFile(m.agentFile, HAND_WRITTEN);
    await chmod(m.agentFile, 0o600);

    const added = m.run(
      "add",
      "gh",
      "--env",
      "GITHUB_TOKEN=${GITHUB_TOKEN}",
      "--",
      "npx",
      "-y",
      "gh-mcp",
      "--read-only",
    );
    expect(added.stderr).toBe("");
    expect(added.stdout).toBe(`Added "gh" to ${m.agentFile}.\n`);
    expect(added.status).toBe(0);

    const text = await readFile(m.agentFile, "utf8");
    const head = HAND_WRITTEN.slice(0, HAND_WRITTEN.indexOf("\n\t},"));
    const tail = HAND_WRITTEN.slice(HAND_WRITTEN.indexOf("\n\t},"));
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(text.slice(head.length, text.length - tail.length)).toBe(
      '\n\t\t"gh": {\n\t\t\t"command": "npx",\n\t\t\t"args": [\n\t\t\t\t"-y",\n\t\t\t\t"gh-mcp",\n\t\t\t\t"--read-only"\n\t\t\t],\n\t\t\t"env": {\n\t\t\t\t"GITHUB_TOKEN": "${GITHUB_TOKEN}"\n\t\t\t}\n\t\t},',
    );
    expect(await mode(m.agentFile)).toBe(0o600);

    // The status command reads the file back as JSONC and sees both servers.
    const status = m.run("status");
    expect(status.stdout).toContain("- docs:");
    expect(status.stdout).toContain("- gh:");
  });

  it("add of an existing name needs --force; remove takes out only that server's lines", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    await writeFile(m.agentFile, HAND_WRITTEN);

    const again = m.run("add", "docs", "--url", "https://elsewhere.example.com/mcp");
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      `error: "docs" is already defined in ${m.agentFile}; add --force to replace it\n`,
    );
    expect(await readFile(m.agentFile, "utf8")).toBe(HAND_WRITTEN);

    const forced = m.run(
      "add",
      "docs",
      "--force",
      "--url",
      "https://elsewhere.example.com/mcp",
      "--transport",
      "sse",
    );
    expect(forced.stdout).toBe(`Replaced "docs" in ${m.agentFile}.\n`);
    expect(JSON.parse(m.run("get", "docs", "--json").stdout).definition).toMatchObject({
      transport: "sse",
      url: "https://elsewhere.example.com/mcp",
    });

    const removed = m.run("remove", "docs");
    expect(removed.stdout).toBe(`Removed "docs" from ${m.agentFile}.\n`);
    expect(await readFile(m.agentFile, "utf8")).toBe(
      HAND_WRITTEN.replace('\t\t"docs": { "url": "https://docs.example.com/mcp" },\n', ""),
    );

    const missing = m.run("remove", "docs");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(
      `error: ${m.agentFile} defines no server named "docs", and no config file defines one\n`,
    );
  });

  it("--project writes the project's .mcp.json; remove names the file that defines a server it cannot find", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    const added = m.run(
      "add",
      "local",
      "--project",
      "--header",
      "X-Team: core",
      "--url",
      "http://127.0.0.1:1/mcp",
    );
    const projectFile = path.join(m.project, ".mcp.json");
    expect(added.stdout).toContain(`Added "local" to ${projectFile}.`);
    expect(added.stdout).toContain("pi-mcp-adapter trust local");
    expect(JSON.parse(await readFile(projectFile, "utf8"))).toEqual({
      mcpServers: { local: { url: "http://127.0.0.1:1/mcp", headers: { "X-Team": "core" } } },
    });
    const wrongFile = m.run("remove", "local");
    expect(wrongFile.stderr).toBe(
      `error: ${m.agentFile} defines no server named "local"; it is defined in ${projectFile} (mcpServers.local) — remove it there\n`,
    );
    expect(m.run("remove", "local", "--project").status).toBe(0);
  });

  it("get masks env values, headers, tokens and secret flags, keeps keys and ${VAR} references", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    await writeFile(
      m.agentFile,
      JSON.stringify({
        mcpServers: {
          api: {
            url: "https://api.example.com/mcp?token=hunter2",
            headers: { Authorization: "Bearer hunter2", "X-Org": "${ORG}" },
            bearerToken: "!pass show api-token",
          },
          tool: {
            command: "tool",
            args: ["--password", "hunter2", "--port", "8080"],
            env: { KEY: "hunter2" },
          },
        },
      }),
    );
    const api = m.run("get", "api");
    const tool = m.run("get", "tool");
    expect(api.status).toBe(0);
    expect(`${api.stdout}${tool.stdout}`).not.toContain("hunter2");
    expect(`${api.stdout}${tool.stdout}`).not.toContain("pass show");
    expect(api.stdout).toContain(`api: http, from ${m.agentFile} (mcpServers.api)`);
    expect(JSON.parse(m.run("get", "api", "--json").stdout).definition).toMatchObject({
      url: "https://api.example.com/mcp?token=****",
      headers: { Authorization: "****", "X-Org": "${ORG}" },
      bearerToken: "****",
    });
    expect(JSON.parse(m.run("get", "tool", "--json").stdout).definition).toMatchObject({
      args: ["--password", "****", "--port", "8080"],
      env: { KEY: "****" },
    });
    const unknown = m.run("get", "nope");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe('error: No server named "nope" is configured (configured: api, tool)\n');
  });

  it("rejects a bad add with a usage error and writes nothing", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    const cases = [
      [["add", "x"], 'missing the server: a command after "--", or --url <url>'],
      [
        ["add", "x", "--url", "https://a.example.com", "--", "cmd"],
        "give either --url or a command after --, not both",
      ],
      [["add", "x", "--env", "NOVALUE", "--", "cmd"], '--env expects KEY=value (no name before "=")'],
      [
        ["add", "x", "--url", "https://a.example.com", "--transport", "ws"],
        '--transport must be http or sse, found "ws"',
      ],
    ] as const;
    for (const [args, message] of cases) {
      const result = m.run(...args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(`error: ${message}\nUsage: add <name>`);
    }
    const invalid = m.run("add", "x", "--url", "ftp://nowhere");
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain('Not adding "x": ');
    expect(invalid.stderr).toContain('mcpServers.x.url: expected an http(s) URL, found "ftp://nowhere"');
    await expect(stat(m.agentFile)).rejects.toThrow(/ENOENT/);
  });
});

describe("file modes of config rewrites", () => {
  it("setup --add keeps a 0600 file 0600; --copy-pi-servers puts a copied token in a new 0600 file", async () => {
    const m = await cliMachine();
    await using _dir = m.dir;
    await writeFile(
      m.agentFile,
      JSON.stringify({ mcpServers: { mine: { url: "https://a.example.com", bearerToken: "t" } } }),
    );
    await chmod(m.agentFile, 0o600);
    expect(m.run("setup", "--add", "deepwiki").status).toBe(0);
    expect(await mode(m.agentFile)).toBe(0o600);

    const piNative = path.join(m.project, ".pi", "mcp.json");
    await mkdir(path.dirname(piNative), { recursive: true });
    await writeFile(
      piNative,
      JSON.stringify({
        mcpServers: { secret: { url: "https://b.example.com", headers: { Authorization: "Bearer tok" } } },
      }),
    );
    const copied = m.run("setup", "--copy-pi-servers");
    expect(copied.status).toBe(0);
    const target = path.join(m.project, ".pi", "mcp-adapter.json");
    expect(JSON.parse(await readFile(target, "utf8")).mcpServers.secret.headers.Authorization).toBe(
      "Bearer tok",
    );
    expect(await mode(target)).toBe(0o600);
  });
});
