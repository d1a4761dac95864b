// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
import { access } from "node:fs/promises";
import path from "node:path";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  type ConfiguredServer,
  configHash,
  prepareConnection,
  resolveOAuthClientSecret,
  runSecretCommand,
} from "../../src/index.js";
import { interpolate } from "../../src/secrets/interpolate.js";
import { createSecretCommandRunner } from "../../src/secrets/secret-command.js";
import { byName, createWorld } from "../world.js";

const server = (fields: Partial<ConfiguredServer>): ConfiguredServer => ({
  name: "s",
  transport: "stdio",
  command: "srv",
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "/f.json", key: "mcpServers.s" },
  scope: "user",
  layers: [],
  ...fields,
});

describe("interpolate", () => {
  it("expands ${VAR} and ${env:VAR}, keeps $${VAR} literal, and names a missing variable", () => {
    expect(interpolate("a-${X}-${env:Y}-$${X}", { X: "1", Y: "2" })).toEqual({ value: "a-1-2-${X}" });
    expect(interpolate("${NOPE}", {})).toEqual({ missing: "NOPE" });
    expect(interpolate("${input:key} $HOME", {})).toEqual({ value: "${input:key} $HOME" });
    expect(interpolate("${constructor}", {})).toEqual({ missing: "constructor" });
  });
});

describe("prepareConnection", () => {
  it("expands variables in env, headers, args and url; literalEnv stays verbatim", async () => {
    const prepared = await prepareConnection(
      server({
        transport: "http",
        url: "https://${HOST}/mcp",
        args: ["--team=${TEAM}"],
        env: { TOKEN: "${TOKEN}" },
        literalEnv: { PATTERN: "${NOT_EXPANDED}" },
        headers: { "X-Team": "${TEAM}" },
      }),
      { env: { HOST: "h.example", TEAM: "core", TOKEN: "t0k" } },
    );
    expect(prepared.definition).toMatchObject({
      url: "https://h.example/mcp",
      args: ["--team=core"],
      env: { TOKEN: "t0k", PATTERN: "${NOT_EXPANDED}" },
      headers: { "X-Team": "core" },
    });
    expect(prepared.definition).not.toHaveProperty("literalEnv");
    expect(prepared.definition).not.toHaveProperty("scope");
  });

  it("fails naming the server, field and variable when a variable is missing", async () => {
    await expect(prepareConnection(server({ env: { K: "${MISSING_KEY}" } }), { env: {} })).rejects.toThrow(
      'MCP server "s": env.K uses ${MISSING_KEY}, which is not set in the environment',
    );
  });

  it("passes only a safe set of variables with inheritEnv: false", async () => {
    const env = { PATH: "/bin", HOME: "/h", AWS_SECRET_ACCESS_KEY: "leak" };
    const inherited = await prepareConnection(server({}), { env });
    const isolated = await prepareConnection(server({ inheritEnv: false, env: { OWN: "1" } }), { env });
    expect(inherited.baseEnv).toEqual(env);
    expect(isolated.baseEnv).toEqual({ PATH: "/bin", HOME: "/h" });
    expect(isolated.definition.env).toEqual({ OWN: "1" });
  });

  it("runs !command secrets for headers, bearerToken, env and oauth.clientSecret, trimming output", async () => {
    const env = { PATH: process.env.PATH };
    const prepared = await prepareConnection(
      server({
        transport: "http",
        url: "https://x.example/mcp",
        headers: { "X-Key": "!printf '  header-secret\\n'" },
        bearerToken: "!echo bearer-secret",
        env: { DB: "!echo env-secret" },
      }),
      { env },
    );
    expect(prepared.definition.headers).toEqual({
      "X-Key": "header-secret",
      Authorization: "Bearer bearer-secret",
    });
    expect(prepared.definition.env).toEqual({ DB: "env-secret" });
    const secret = await resolveOAuthClientSecret(
      server({ oauth: { clientSecret: "!echo client-secret" } }),
      { env },
    );
    expect(secret).toBe("client-secret");
  });

  it("uses bearerTokenEnv and never overrides an explicit Authorization header", async () => {
    const fromEnv = await prepareConnection(
      server({ transport: "http", url: "https://x.example", bearerTokenEnv: "TOK" }),
      {
        env: { TOK: "abc" },
      },
    );
    expect(fromEnv.definition.headers).toEqual({ Authorization: "Bearer abc" });
    const explicit = await prepareConnection(
      server({
        transport: "http",
        url: "https://x.example",
        bearerToken: "b",
        headers: { authorization: "Basic x" },
      }),
      { env: {} },
    );
    expect(explicit.definition.headers).toEqual({ authorization: "Basic x" });
  });

  it("reports failing, empty, oversized and slow secret commands by server and field, never echoing output", async () => {
    const env = { PATH: process.env.PATH };
    const failing = prepareConnection(server({ env: { K: "!echo do-not-show; exit 3" } }), { env });
    await expect(failing).rejects.toThrow(
      'MCP server "s": the secret command for env.K exited with status 3',
    );
    await expect(failing).rejects.not.toThrow(/do-not-show/);
    await expect(failing).rejects.toMatchObject({ name: "ConfigError", code: "secret_failed" });
    await expect(runSecretCommand("exit 4", { env })).rejects.toMatchObject({
      code: "secret_failed",
      message: "exited with status 4",
    });
    await expect(prepareConnection(server({ env: { K: "!true" } }), { env })).rejects.toThrow(
      "the secret command for env.K printed nothing",
    );
    const small = createSecretCommandRunner({ maxBytes: 1000, timeoutMs: 300 });
    await expect(
      prepareConnection(server({ headers: { H: "!head -c 5000 /dev/zero | tr '\\0' x" } }), {
        env,
        runSecret: small,
      }),
    ).rejects.toThrow("the secret command for headers.H printed more than 1000 bytes");
    await expect(
      prepareConnection(server({ bearerToken: "!sleep 5" }), { env, runSecret: small }),
    ).rejects.toThrow("the secret command for bearerToken timed out after 0.3 s");
  });

  it("never runs a secret command while loading, merging or hashing config", async () => {
    await using w = await createWorld();
    await using marker = await createTempDir();
    const touched = path.join(marker.path, "ran");
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      mcpServers: { s: { url: "https://x.example/mcp", headers: { K: `!touch ${touched} && echo v` } } },
    });
    const config = await w.load();
    configHash(config.servers);
    await expect(access(touched)).rejects.toThrow();
    await prepareConnection(byName(config, "s"), { env: { PATH: process.env.PATH } });
    await expect(access(touched)).resolves.toBeUndefined();
  });
});
