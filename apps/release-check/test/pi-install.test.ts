/**
 * `pi install npm:pi-mcp-adapter` as a user types it, on both Pi lines: npm is pointed at a local
 * registry that serves our tarballs as if published (third-party packages come from the public registry,
 * through npm's cache), Pi installs the package, and a Pi turn started without `-e` loads it from Pi's
 * settings and calls a tool through the `mcp` proxy. Beside it, another extension with its own install
 * of `pi-mcp-adapter` imports `pi-mcp-adapter/oauth` and answers a tool call with the token API.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { piHosts } from "@pi-mcp-adapter/e2e/pi-hosts";
import { createPiProject, type PiProject } from "@pi-mcp-adapter/e2e/pi-project";
import {
  SCRIPTED_MODEL_ID,
  SCRIPTED_PROVIDER,
  stdioFixtureServerPath,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { beforeAll, describe, expect, it } from "vitest";
import { npm } from "../src/install-tarballs.js";
import { type LocalRegistry, startLocalRegistry } from "../src/local-registry.js";
import { packedTarballs } from "../src/published-packages.js";

const run = promisify(execFile);
const npmCache = execFileSync("npm", ["config", "get", "cache"], { cwd: tmpdir(), encoding: "utf8" }).trim();

const OTHER_EXTENSION = `import { getMcpOAuthStatus } from "pi-mcp-adapter/oauth";

export default function (pi) {
  pi.registerTool({
    name: "oauth_status",
    label: "OAuth status",
    description: "Whether pi-mcp-adapter holds OAuth tokens for a server",
    parameters: { type: "object", properties: {} },
    async execute() {
      const status = await getMcpOAuthStatus("docs", "https://mcp.example.com/mcp");
      return { content: [{ type: "text", text: "status:" + JSON.stringify(status) }], details: {} };
    },
  });
}
`;

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startLocalRegistry([...packedTarballs().values()]);
  return () => registry[Symbol.asyncDispose]();
});

/**
 * How this machine reaches the public registry (trusted CAs, proxies), which npm needs for the packages the
 * local registry redirects there when they are not in the cache yet. A user's own machine has them too.
 */
const NETWORK_ENV = [
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "npm_config_cafile",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
];
const networkEnv = Object.fromEntries(
  NETWORK_ENV.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])),
);
/** npm's own `cafile`, when set in a config file the isolated HOME does not see. */
const cafile = execFileSync("npm", ["config", "get", "cafile"], { cwd: tmpdir(), encoding: "utf8" }).trim();

/** The environment of the project's Pi and npm processes: isolated dirs, npm pointed at the local registry. */
function envOf(project: PiProject, node: string): NodeJS.ProcessEnv {
  return {
    ...networkEnv,
    ...(cafile && cafile !== "null" && cafile !== "undefined" ? { npm_config_cafile: cafile } : {}),
    PATH: `${path.dirname(node)}:${process.env.PATH ?? ""}`,
    HOME: project.home,
    PI_CODING_AGENT_DIR: project.agentDir,
    TMPDIR: process.env.TMPDIR,
    LANG: "C.UTF-8",
    PI_MCP_ADAPTER_OAUTH_FILE_KEY: Buffer.alloc(32, 7).toString("base64"),
    npm_config_registry: registry.url,
    npm_config_cache: npmCache,
    npm_config_prefix: project.join("npm-global"),
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

describe("pi install of the published umbrella", () => {
  for (const host of piHosts()) {
    it(`${host.label}: pi install npm:pi-mcp-adapter, then a turn uses it and another extension's own install`, async () => {
      await using project = await createPiProject({
        host,
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
        allowProjectServers: true,
        // The adapter's store, which the other extension's own copy of pi-mcp-adapter/oauth must use too.
        adapterConfig: { settings: { oauthCredentialStore: "encrypted-file" } },
        steps: [
          { toolCall: { name: "mcp", arguments: { tool: "fixture_add", args: { a: 20, b: 22 } } } },
          { toolCall: { name: "oauth_status", arguments: {} } },
          { text: "done" },
        ],
      });
      const env = envOf(project, host.node);
      const pi = (args: string[]) => {
        const running = run(host.node, [host.cli, ...args], {
          cwd: project.dir,
          env,
          timeout: 180_000,
          maxBuffer: 64 << 20,
        });
        running.child.stdin?.end(); // Pi reads a piped stdin as more prompt
        return running;
      };

      await pi(["install", "npm:pi-mcp-adapter"]);
      const other = project.join("other-extension");
      await mkdir(other);
      await writeFile(
        path.join(other, "package.json"),
        JSON.stringify({
          name: "other-extension",
          private: true,
          type: "module",
          dependencies: { "pi-mcp-adapter": "*" },
          pi: { extensions: ["./index.js"] },
        }),
      );
      await writeFile(path.join(other, "index.js"), OTHER_EXTENSION);
      await npm(other, ["install"], env);
      expect(existsSync(path.join(other, "node_modules", "pi-mcp-adapter", "dist", "oauth.js"))).toBe(true);
      await pi(["install", other]);
      expect(registry.served).toContain("/pi-mcp-adapter");

      const turn = await pi([
        "--no-session",
        "--provider",
        SCRIPTED_PROVIDER,
        "--model",
        SCRIPTED_MODEL_ID,
        "--mode",
        "json",
        "-p",
        "add, then check the login",
      ]).catch((error: { message?: string; stderr?: string }) => ({
        stderr: `${error.message}\n${error.stderr}`,
      }));
      expect(project.model.requests.length, turn.stderr).toBe(3);
      expect(toolResultTexts(project.model.requests[1]!)).toEqual(["42"]);
      const status = toolResultTexts(project.model.requests[2]!).at(-1);
      expect(status).toMatch(/^status:\{"server":"docs",.*"store":"encrypted-file","authenticated":false/);
    });
  }
});
