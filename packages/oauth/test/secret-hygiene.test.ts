/**
 * Secrets never reach output: a whole login, refresh, failed paste, wrong
 * file key, status and logout run in a child process (its real stdout and
 * stderr, with every error message printed), and none of the values the
 * authorization server saw — codes, PKCE verifiers, state, access and
 * refresh tokens — may appear there.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createFixtureServer, createTempDir, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

const script = `
import { createEncryptedFileStore, getMcpOAuthStatus, getMcpOAuthTokensForUrl, logoutMcpOAuth, startOAuthLogin } from "@pi-mcp-adapter/oauth";
const url = process.env.MCP_URL;
const store = createEncryptedFileStore({ dir: process.env.STORE_DIR, env: { PI_MCP_ADAPTER_OAUTH_FILE_KEY: process.env.KEY_A } });
const show = (label, value) => console.log(label, typeof value === "string" ? value : JSON.stringify(value));
const report = (label, error) => console.error(label, error?.code, error?.message, error?.cause?.message ?? "");
const login = await startOAuthLogin({ server: "docs", url, store, redirectUrl: "http://127.0.0.1:1/cb", warn: (m) => console.warn(m) });
const callback = new URL((await fetch(login.authorizationUrl, { redirect: "manual" })).headers.get("location"));
const forged = new URL(callback); forged.searchParams.set("state", "other");
await login.complete(forged.href).catch((e) => report("forged:", e));
await login.complete(callback.href);
show("status:", await getMcpOAuthStatus("docs", url, { store }));
await getMcpOAuthTokensForUrl("docs", url, { store, now: () => Date.now() + 3599e3 });
const wrongKey = createEncryptedFileStore({ dir: process.env.STORE_DIR, env: { PI_MCP_ADAPTER_OAUTH_FILE_KEY: process.env.KEY_B } });
await getMcpOAuthTokensForUrl("docs", url, { store: wrongKey }).catch((e) => report("wrong key:", e));
show("logout:", await logoutMcpOAuth("docs", { store }));
await startOAuthLogin({ server: "docs", url: url.replace("/mcp", "/nothing"), store }).catch((e) => report("bad url:", e));
`;

describe("secret hygiene", () => {
  it("prints no code, verifier, state or token anywhere in a full session", async () => {
    await using as = await serveOAuthProtectedMcp({ makeServer: () => createFixtureServer({ tools: [] }) });
    await using dir = await createTempDir();
    const output = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
        cwd: packageDir,
        env: {
          ...process.env,
          MCP_URL: as.url,
          STORE_DIR: dir.path,
          KEY_A: randomBytes(32).toString("base64"),
          KEY_B: randomBytes(32).toString("base64"),
        },
      });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.on("close", (code) => resolve(`${text}\nexit ${code}`));
    });

    expect(output).toContain("exit 0");
    expect(output).toMatch(/forged: state_mismatch/);
    expect(output).toMatch(/wrong key: file_key_invalid/);
    expect(output).toMatch(/status: .*"authenticated":true/);
    expect(output).toMatch(/logout: .*"deleted":true,"revocation":"revoked"/);
    expect(output).toMatch(/bad url: authorization_failed/);

    const secrets = new Set<string>();
    for (const body of as.tokenRequests) {
      for (const key of ["code", "code_verifier", "refresh_token"]) {
        const value = body.get(key);
        if (value) secrets.add(value);
      }
    }
    for (const query of as.authorizeRequests) secrets.add(query.get("state") as string);
    for (const value of as.revoked) secrets.add(value);
    expect(secrets.size, output).toBeGreaterThanOrEqual(5);
    for (const secret of secrets) expect(output).not.toContain(secret);
  });
});
