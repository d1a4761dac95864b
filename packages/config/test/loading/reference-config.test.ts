// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * Config files as people write them for other clients: JSONC (comments,
 * trailing commas) in every file we read, syntax errors reported at their
 * real line and column, a config symlink whose target is gone, and the
 * reference adapter's (2.x) key names read as ours.
 */
import { symlink } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names } from "../world.js";

describe("JSONC config files", () => {
  it("accepts comments and trailing commas in every source: user, project, explicit and host files", async () => {
    await using w = await createWorld();
    const jsonc = (name: string) =>
      `{\n  // ${name}'s servers\n  "mcpServers": {\n    /* block */ "${name}": { "command": "x", "args": ["a",], },\n  },\n}\n`;
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), jsonc("shared"));
    await w.write(
      path.join(w.agentDir, "mcp-adapter.json"),
      jsonc("agent").replace("{\n", '{\n  "imports": ["claude-code"],\n'),
    );
    await w.write(path.join(w.project, ".mcp.json"), jsonc("project"));
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), jsonc("override"));
    await w.write(path.join(w.home, ".claude.json"), jsonc("claude"));
    const explicit = await w.write(path.join(w.project, "extra.json"), jsonc("explicit"));

    const config = await w.load({ configPath: explicit });
    expect(messages(config)).toEqual([]);
    expect(names(config)).toEqual(["agent", "claude", "explicit", "override", "project", "shared"]);
    expect(byName(config, "project").args).toEqual(["a"]);
  });

  it("reports a real syntax error at its line and column, naming the file", async () => {
    await using w = await createWorld();
    const lines = [
      "{",
      "  // a comment line",
      '  "mcpServers": {',
      '    "ok": { "command": "x" },',
      "    /* two",
      "       lines */",
      '    "bad": { "command": x }',
      "  }",
      "}",
    ];
    const file = await w.write(path.join(w.project, ".mcp.json"), lines.join("\n"));
    const config = await w.load();
    // Line 7: `    "bad": { "command": x }` — the `x` is column 25.
    expect(config.problems).toEqual([
      { severity: "error", file, message: "invalid JSON at line 7 column 25: unexpected character" },
    ]);
    expect(config.servers).toEqual([]);
  });

  it("counts columns from the line start with CRLF line ends and names the character found", async () => {
    await using w = await createWorld();
    // Line 3: `    "a": { "command": "x" ]` — the `]` is column 27.
    const text = '{\r\n  "mcpServers": {\r\n    "a": { "command": "x" ]\r\n  }\r\n}\r\n';
    await w.write(path.join(w.project, ".mcp.json"), text);
    const config = await w.load();
    expect(messages(config, "error")).toEqual([
      '.mcp.json: invalid JSON at line 3 column 27: expected "," or a closing bracket (found "]")',
    ]);
  });

  it("warns about a config symlink whose target is missing, naming the link and the target", async () => {
    await using w = await createWorld();
    const link = path.join(w.project, ".mcp.json");
    const target = path.join(w.dir.path, "dotfiles", "mcp.json");
    await symlink(target, link);
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { mcpServers: { other: { command: "x" } } });
    const config = await w.load();
    expect(config.problems).toEqual([
      {
        severity: "warning",
        file: link,
        message: `symbolic link to ${target}, which does not exist; this config file is not loaded`,
      },
    ]);
    expect(names(config)).toEqual(["other"]);
  });
});

describe("the reference adapter's (2.x) keys", () => {
  it('reads protocolVersion as protocol: "auto" stays "auto" and nothing is reported', async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { cf: { url: "https://worker.example.com/mcp", protocolVersion: "auto" } },
    });
    const config = await w.load();
    expect(messages(config)).toEqual([]);
    expect(byName(config, "cf").protocol).toBe("auto");
    expect(byName(config, "cf").extra).toBeUndefined();
  });

  it("checks protocolVersion values like protocol's and lets protocol win when both are set", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        bad: { url: "https://a.example.com/mcp", protocolVersion: "2025" },
        both: { url: "https://b.example.com/mcp", protocolVersion: "auto", protocol: "2026-07-28" },
      },
    });
    const config = await w.load();
    expect(names(config)).toEqual(["both"]);
    expect(byName(config, "both").protocol).toBe("2026-07-28");
    expect(messages(config)).toEqual([
      expect.stringMatching(/^\.mcp\.json: mcpServers\.bad\.protocol: /),
      '.mcp.json: mcpServers.both.protocolVersion: both "protocolVersion" (the 2.x name) and "protocol" are set; "protocol" is used',
    ]);
  });

  it('reads httpTransport "sse" and "streamable-http" as the transport', async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        old: { url: "https://a.example.com/sse", httpTransport: "sse" },
        modern: { url: "https://b.example.com/mcp", httpTransport: "streamable-http" },
        wrong: { url: "https://c.example.com/mcp", httpTransport: "websocket" },
      },
    });
    const config = await w.load();
    expect(byName(config, "old").transport).toBe("sse");
    expect(byName(config, "modern").transport).toBe("http");
    expect(names(config)).toEqual(["modern", "old"]);
    expect(messages(config)).toEqual([
      '.mcp.json: mcpServers.wrong.httpTransport: expected "streamable-http" or "sse", found "websocket"',
    ]);
  });

  it("reads literalEnv: true as every env value passed verbatim (no !command, no ${VAR})", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        plugin: { command: "x", env: { TOKEN: "!not-a-command", HOME_DIR: "${HOME}" }, literalEnv: true },
        plain: { command: "y", env: { A: "1" }, literalEnv: false },
      },
    });
    const config = await w.load();
    expect(messages(config)).toEqual([]);
    expect(byName(config, "plugin").literalEnv).toEqual({ TOKEN: "!not-a-command", HOME_DIR: "${HOME}" });
    expect(byName(config, "plugin").env).toBeUndefined();
    expect(byName(config, "plain").env).toEqual({ A: "1" });
    expect(byName(config, "plain").literalEnv).toBeUndefined();
  });

  it("keeps warning about 2.x options this version does not support, saying so", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      settings: { warnOnLargeDirectTools: false, somethingNew: 1 },
      mcpServers: {
        s: {
          url: "https://a.example.com/mcp",
          bearerTokenStore: true,
          exposeResources: false,
          oauth: { grantType: "client_credentials", clientId: "c", clientSecret: "x" },
        },
      },
    });
    const config = await w.load();
    const reason = "a pi-mcp-adapter 2.x option this version does not support; ignored";
    expect(messages(config, "warning").sort()).toEqual(
      [
        `.mcp.json: mcpServers.s.exposeResources: ${reason}`,
        `.mcp.json: settings.warnOnLargeDirectTools: ${reason}`,
        ".mcp.json: settings.somethingNew: unknown setting, kept but not used",
      ].sort(),
    );
  });

  it("reads the 2.x authentication options as ours, and names a bad value at its field", async () => {
    await using w = await createWorld();
    const oauth = {
      grantType: "client_credentials",
      clientId: "c",
      clientSecret: "!pass show c",
      clientMetadataUrl: "https://client.example.com/pi/client.json",
      authServerMetadataUrl: "https://login.example.com/.well-known/openid-configuration",
      authorizationParams: { prompt: "consent" },
      clientUri: "https://pi.example.com",
      logoUri: "https://pi.example.com/logo.png",
    };
    const signer = { command: "sign", args: ["--key", "${KEY_FILE}"], env: { A: "1" }, timeoutMs: 5000 };
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        good: {
          url: "https://a.example.com/mcp",
          bearerTokenStore: true,
          requestHeadersCommand: signer,
          oauth,
        },
        bad: {
          url: "https://b.example.com/mcp",
          bearerTokenStore: false,
          requestHeadersCommand: { command: "", timeoutMs: 0 },
          oauth: {
            grantType: "password",
            clientMetadataUrl: "http://client.example.com/x.json",
            authServerMetadataUrl: "http://login.example.com/metadata",
            authorizationParams: { client_id: "other", state: "fixed" },
            logoUri: "logo.png",
          },
        },
      },
    });
    const config = await w.load();
    expect(messages(config, "warning")).toEqual([]);
    expect(byName(config, "good")).toMatchObject({
      bearerTokenStore: true,
      requestHeadersCommand: signer,
      oauth,
    });
    expect(names(config)).toEqual(["good"]);
    expect(messages(config, "error").sort()).toEqual(
      [
        ".mcp.json: mcpServers.bad.bearerTokenStore: Invalid input: expected true",
        ".mcp.json: mcpServers.bad.requestHeadersCommand.command: must not be empty",
        ".mcp.json: mcpServers.bad.requestHeadersCommand.timeoutMs: Too small: expected number to be >=1",
        '.mcp.json: mcpServers.bad.oauth.grantType: Invalid option: expected one of "authorization_code"|"client_credentials"',
        ".mcp.json: mcpServers.bad.oauth.clientMetadataUrl: must be an https URL with a path (the Client ID Metadata Document)",
        ".mcp.json: mcpServers.bad.oauth.authServerMetadataUrl: the metadata document URL must be an absolute https URL",
        '.mcp.json: mcpServers.bad.oauth.authorizationParams.client_id: "client_id" is set by the login flow and cannot be configured',
        '.mcp.json: mcpServers.bad.oauth.authorizationParams.state: "state" is set by the login flow and cannot be configured',
        ".mcp.json: mcpServers.bad.oauth.logoUri: logoUri must be an absolute http(s) URL",
      ].sort(),
    );
  });
});
