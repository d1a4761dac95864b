/**
 * The OS keyring store against a real Secret Service: @github/keytar (its
 * prebuilt binary, as npm installs it) talking to gnome-keyring inside
 * `dbus-run-session`, through the
 * public `pi-mcp-adapter/oauth` token API and a real login against a
 * loopback authorization server. Then the ways a keyring fails — no D-Bus,
 * no Secret Service, a locked keyring — each with its message, and nothing
 * written anywhere else.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createFixtureServer,
  createTempDir,
  type OAuthMcpServer,
  serveOAuthProtectedMcp,
  skipNotice,
  type TempDir,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { have, keyringMissingReason, unlockedKeyring } from "../../src/secret-service.js";

const e2eDir = fileURLToPath(new URL("../..", import.meta.url));

const keyringMissing = keyringMissingReason();
if (keyringMissing && process.env.CI) {
  throw new Error(
    `The keyring test needs gnome-keyring, dbus-x11, libsecret-tools and a loadable @github/keytar (see .ci/run): ${keyringMissing}`,
  );
}
const keyringSkipped = skipNotice("OS keyring store tests", keyringMissing);
const keyctlSkipped = skipNotice(
  "revoked session keyring test",
  keyringMissing ?? (have("keyctl") ? undefined : "keyctl not installed (apt-get install keyutils)"),
);

let isolatedHome = "";

/**
 * Runs a script (ESM, cwd apps/e2e) inside `wrapper`, returning its last JSON
 * line. HOME is a temp dir, so gnome-keyring creates its keyrings there and
 * never touches the developer's own.
 */
function runScript(
  script: string,
  wrapper: (command: string) => string[],
  baseEnv: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; result: Record<string, unknown>; output: string }> {
  const env = { ...baseEnv, HOME: isolatedHome, XDG_DATA_HOME: path.join(isolatedHome, ".local", "share") };
  return new Promise((resolve) => {
    const command = `${JSON.stringify(process.execPath)} --input-type=module -e "$PROBE_SCRIPT"`;
    const [file, ...args] = wrapper(command);
    const child = spawn(file as string, args, {
      cwd: e2eDir,
      env: { ...env, PROBE_SCRIPT: script },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const line =
        stdout
          .trim()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .at(-1) ?? "{}";
      resolve({ code, result: JSON.parse(line) as Record<string, unknown>, output: stdout + stderr });
    });
  });
}

/** A probe that tries one write and reports the error code and message. */
const tryWrite = `
import { createKeyringStore } from "@pi-mcp-adapter/oauth";
try {
  await createKeyringStore({ service: "pi-mcp-adapter-e2e", timeoutMs: 10000 }).set("docs", "{}");
  console.log(JSON.stringify({ ok: true }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: error.code, message: error.message }));
}
`;

describe.skipIf(keyringSkipped !== "")(
  `OS keyring store (gnome-keyring over D-Bus, keytar)${keyringSkipped}`,
  () => {
    let as: OAuthMcpServer;
    let tmp: TempDir;

    beforeAll(async () => {
      as = await serveOAuthProtectedMcp({
        makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
      });
      tmp = await createTempDir("pi-mcp-keyring-");
    });

    beforeEach(async () => {
      isolatedHome = path.join(tmp.path, `home-${Math.random().toString(36).slice(2)}`);
      await mkdir(isolatedHome, { recursive: true });
    });

    afterAll(async () => {
      await as?.close();
      await tmp?.remove();
    });

    it("logs in, stores, reads, refreshes and deletes a token in the real keyring", async () => {
      const script = `
import { execFileSync } from "node:child_process";
import { createKeyringStore, logoutMcpOAuth, startOAuthLogin } from "@pi-mcp-adapter/oauth";
import { getMcpOAuthStatus, getMcpOAuthTokensForUrl, updateMcpOAuthTokensForUrl } from "pi-mcp-adapter/oauth";
const url = process.env.MCP_URL;
const store = createKeyringStore();
const lookup = () => {
  try { return execFileSync("secret-tool", ["lookup", "service", "pi-mcp-adapter", "account", "docs"]).toString(); }
  catch { return null; }
};
const out = {};
const login = await startOAuthLogin({ server: "docs", url, store });
const callback = (await fetch(login.authorizationUrl, { redirect: "manual" })).headers.get("location");
await fetch(callback);
await login.done;
const stored = lookup();
out.storedInKeyring = stored !== null;
const first = await getMcpOAuthTokensForUrl("docs", url);
out.tokenMatchesKeyring = stored.includes(first.access_token);
out.otherUrl = (await getMcpOAuthTokensForUrl("docs", url.replace("/mcp", "/other"))) ?? null;
const refreshed = await getMcpOAuthTokensForUrl("docs", url, { now: () => Date.now() + 3599 * 1000 });
out.refreshed = refreshed.access_token !== first.access_token;
out.refreshPersisted = lookup().includes(refreshed.access_token);
await updateMcpOAuthTokensForUrl("docs", url, { access_token: "from-extension", token_type: "Bearer" });
out.updated = (await getMcpOAuthTokensForUrl("docs", url)).access_token === "from-extension";
out.status = await getMcpOAuthStatus("docs", url);
out.logout = await logoutMcpOAuth("docs", { store });
out.afterLogout = lookup();
out.firstToken = first.access_token;
console.log(JSON.stringify(out));
`;
      const run = await runScript(script, unlockedKeyring, { ...process.env, MCP_URL: as.url });
      expect(run.code, run.output).toBe(0);
      const r = run.result;
      expect(r).toMatchObject({
        storedInKeyring: true,
        tokenMatchesKeyring: true,
        otherUrl: null,
        refreshed: true,
        refreshPersisted: true,
        updated: true,
        status: { authenticated: true, store: "keyring" },
        logout: { deleted: true, revocation: "revoked" },
        afterLogout: null,
      });
      expect(as.tokenRequests.map((b) => b.get("grant_type"))).toEqual([
        "authorization_code",
        "refresh_token",
      ]);
      // Nothing the user could read carries the token: the probe's own output aside, no stderr line.
      expect(run.output.replace(JSON.stringify(r), "")).not.toContain(r.firstToken as string);
    });

    it("without D-Bus, fails closed and says how to fix it", async () => {
      const env = { ...process.env };
      delete env.DBUS_SESSION_BUS_ADDRESS;
      delete env.DISPLAY;
      const run = await runScript(tryWrite, (command) => ["sh", "-c", command], env);
      expect(run.result).toMatchObject({ ok: false, code: "store_unavailable" });
      expect(run.result.message).toMatch(/no D-Bus session bus/);
      expect(run.result.message).toMatch(/encrypted-file/);
    });

    it("without a Secret Service on the bus, fails closed and says to install gnome-keyring", async () => {
      // A session bus that can activate nothing: no org.freedesktop.secrets.
      const config = path.join(tmp.path, "bare-session.conf");
      await writeFile(
        config,
        `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:tmpdir=${tmp.path}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>`,
      );
      const run = await runScript(tryWrite, (command) => [
        "dbus-run-session",
        `--config-file=${config}`,
        "--",
        "sh",
        "-c",
        command,
      ]);
      expect(run.result, run.output).toMatchObject({ ok: false, code: "store_unavailable" });
      expect(run.result.message).toMatch(/no Secret Service/);
      expect(run.result.message).toMatch(/gnome-keyring/);
    });

    it("with a locked keyring, fails closed and says to unlock it", async () => {
      const locked = (command: string) => [
        "dbus-run-session",
        "--",
        "sh",
        "-c",
        // Unlock once to create the login keyring, then lock it again.
        `printf %s pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; ` +
          `secret-tool store --label=x service probe account probe <<EOF >/dev/null 2>&1\nx\nEOF\n` +
          `gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets ` +
          `--method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null 2>&1 || true; ${command}`,
      ];
      const run = await runScript(tryWrite, locked);
      expect(run.result, run.output).toMatchObject({ ok: false, code: "store_locked" });
      expect(run.result.message).toMatch(/locked/);
      expect(run.result.message).toMatch(/unlock/i);
    });
  },
);

/**
 * A revoked session keyring (what a tmux server that outlived its login
 * session hands to the Pi it starts). Revoking is real (`keyctl revoke @s`),
 * and so are the detection, the `keyctl session -` helper, @github/keytar and
 * gnome-keyring. Only the keyring failure that triggers the recovery is a
 * stand-in: gnome-keyring reached over D-Bus does not consult the session
 * keyring, so that failure cannot be produced on this machine.
 */
describe.skipIf(keyctlSkipped !== "")(`a revoked session keyring (keyctl)${keyctlSkipped}`, () => {
  let tmp: TempDir;
  beforeAll(async () => {
    tmp = await createTempDir("pi-mcp-keyctl-");
  });
  beforeEach(async () => {
    isolatedHome = path.join(tmp.path, `home-${Math.random().toString(36).slice(2)}`);
    await mkdir(isolatedHome, { recursive: true });
  });
  afterAll(() => tmp?.remove());
  const probe = `
import { createKeyringStore, sessionKeyringRevoked } from "@pi-mcp-adapter/oauth";
const revoked = await sessionKeyringRevoked();
const failing = {
  getPassword: async () => { throw new Error("Key has been revoked"); },
  setPassword: async () => { throw new Error("Key has been revoked"); },
  deletePassword: async () => { throw new Error("Key has been revoked"); },
};
const store = createKeyringStore({ service: "pi-mcp-adapter-e2e", loadKeytar: async () => failing, timeoutMs: 20000 });
try {
  await store.set("docs", "recovered-value");
  console.log(JSON.stringify({ revoked, ok: true, read: await store.get("docs") }));
} catch (error) {
  console.log(JSON.stringify({ revoked, ok: false, code: error.code, message: error.message }));
}
`;
  const revokedSession = (command: string) =>
    unlockedKeyring(
      `keyctl session - sh -c 'keyctl revoke @s; ${command}; ` +
        `echo "{\\"stored\\": \\"$(secret-tool lookup service pi-mcp-adapter-e2e account docs)\\"}"'`,
    );

  it("is detected, and the write goes through a helper with a fresh session keyring", async () => {
    const run = await runScript(probe, revokedSession);
    expect(run.output).toMatch(/"revoked":true,"ok":true,"read":"recovered-value"/);
    // The value is in the real Secret Service, where the helper put it.
    expect(run.result, run.output).toEqual({ stored: "recovered-value" });
  });

  it("with an intact session keyring, nothing is retried and the error says what failed", async () => {
    const run = await runScript(probe, unlockedKeyring);
    expect(run.result, run.output).toMatchObject({ revoked: false, ok: false, code: "store_failed" });
  });
});
