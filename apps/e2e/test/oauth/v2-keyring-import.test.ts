/**
 * Upgrading from pi-mcp-adapter 2.36 keeps the user's logins. 2.36 itself
 * (its published store modules, run by `write-as-2.36.mjs`) saves OAuth
 * logins and a `/mcp token` bearer token into a real gnome-keyring over
 * D-Bus, for tokens a real test-kit authorization server issued. Then our
 * CLI, in the same keyring session, calls tools: the logins are imported
 * once and used without a new login (an expired one is refreshed with the
 * imported refresh token and client), a record saved for another URL is not
 * imported and its token reaches no server, a logout is not undone by the
 * next start, 2.x's entries are left exactly as they were, and no token is
 * in anything the CLI prints.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMemoryCredentialStore, startOAuthLogin } from "@pi-mcp-adapter/oauth";
import {
  createFixtureServer,
  createTempDir,
  type OAuthMcpServer,
  serveOAuthProtectedMcp,
  skipNotice,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { keyringMissingReason, unlockedKeyring } from "../../src/secret-service.js";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const cliBin = path.join(repo, "packages/pi-mcp-adapter/dist/cli/main.js");
const writeAs236 = path.join(repo, "packages/oauth/test/fixtures/write-as-2.36.mjs");

const keyringMissing = keyringMissingReason();
if (keyringMissing && process.env.CI) {
  throw new Error(`The 2.x keyring import test needs a Secret Service (see .ci/run): ${keyringMissing}`);
}
const skipped = skipNotice("2.x keyring import tests", keyringMissing);

/**
 * secret-tool's listing as comparable entries: per item its service, account,
 * label and value (not its timestamps, nor the order or schema line, which
 * vary between runs), sorted.
 */
function entries(listing: string): string[] {
  return listing
    .split(/^\[\/\d+\]$/m)
    .map((item) =>
      item
        .split("\n")
        .filter((line) => /^(attribute\.service|attribute\.username|label|secret) = /.test(line))
        .sort()
        .join("\n"),
    )
    .filter(Boolean)
    .sort();
}

const digest = (items: string[]) => createHash("sha256").update(items.join("\n\n")).digest("hex");

/** A real login at `as` (what 2.x did before the upgrade): its tokens and client registration. */
async function loginAt(as: OAuthMcpServer, server: string) {
  const store = createMemoryCredentialStore();
  const login = await startOAuthLogin({ server, url: as.url, store });
  if (!login.authorizationUrl) throw new Error(`the login for ${server} gave no authorization URL`);
  await fetch(await as.approve(login.authorizationUrl));
  await login.done;
  const record = JSON.parse((await store.get(server)) as string);
  return {
    accessToken: record.tokens.access_token as string,
    refreshToken: record.tokens.refresh_token as string,
    clientId: record.client.client_id as string,
    redirectUris: record.client.redirect_uris as string[],
  };
}

describe.skipIf(skipped !== "")(`pi-mcp-adapter 2.36's keyring entries${skipped}`, () => {
  it("are imported once and used without a login; another URL's record is not; 2.x's entries stay", async () => {
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    await using other = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    await using tmp = await createTempDir("pi-mcp-v2-import-");
    const docs = await loginAt(as, "docs");
    const renewed = await loginAt(as, "renewed");
    const secrets = [docs.accessToken, docs.refreshToken, renewed.accessToken, renewed.refreshToken];
    const nowSec = Math.floor(Date.now() / 1000);
    const writes = [
      {
        oauth: "docs",
        url: as.url,
        clientInfo: { clientId: docs.clientId, redirectUris: docs.redirectUris },
        tokens: { accessToken: docs.accessToken, refreshToken: docs.refreshToken, expiresAt: nowSec + 3600 },
      },
      {
        // Expired before the upgrade, with a refresh token: still imported, then refreshed.
        oauth: "renewed",
        url: as.url,
        clientInfo: { clientId: renewed.clientId, redirectUris: renewed.redirectUris },
        tokens: {
          accessToken: renewed.accessToken,
          refreshToken: renewed.refreshToken,
          expiresAt: nowSec - 60,
        },
      },
      // Saved by 2.x for `as`; configured now for `other`: never sent there.
      { oauth: "moved", url: as.url, tokens: { accessToken: docs.accessToken, expiresAt: nowSec + 3600 } },
      { bearer: "keyed", url: as.url, token: docs.accessToken },
    ];

    const agentDir = tmp.join("agent");
    const home = tmp.join("home");
    await mkdir(agentDir, { recursive: true });
    await mkdir(home, { recursive: true });
    await writeFile(
      path.join(agentDir, "mcp-adapter.json"),
      JSON.stringify({
        mcpServers: {
          docs: { url: as.url },
          renewed: { url: as.url },
          moved: { url: other.url },
          keyed: { url: as.url, bearerTokenStore: true },
        },
      }),
    );
    const out = (name: string) => tmp.join(`${name}.out`);
    const cli = (name: string, ...args: string[]) =>
      `${JSON.stringify(process.execPath)} ${JSON.stringify(cliBin)} --cwd ${JSON.stringify(tmp.path)} ` +
      `${args.map((a) => `'${a}'`).join(" ")} >${JSON.stringify(out(name))} 2>&1; echo "exit $?" >>${JSON.stringify(out(name))}`;
    // 2.x's entries as secret-tool sees them (values included), to compare before and after.
    const dump = (name: string) =>
      `for s in pi-mcp-adapter.oauth pi-mcp-adapter.bearer; do secret-tool search --all service $s 2>&1 | grep -v '^created\\|^modified'; done >${JSON.stringify(out(name))}`;
    const env = {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      PI_CODING_AGENT_DIR: agentDir,
      V2_WRITES: JSON.stringify(writes),
    };
    // Two keyring sessions on the same HOME (gnome-keyring keeps its keyring there between them).
    const inKeyringSession = (steps: string[]) => {
      const [file, ...args] = unlockedKeyring(steps.join("; "));
      return new Promise<void>((resolve) =>
        execFile(file as string, args, { env, timeout: 240_000 }, () => resolve()),
      );
    };
    await inKeyringSession([
      `${JSON.stringify(process.execPath)} ${JSON.stringify(writeAs236)} >${JSON.stringify(out("write"))} 2>&1`,
      dump("before"),
      cli("docs", "call", "docs_echo", '{"text":"imported"}'),
      cli("keyed", "call", "keyed_echo", '{"text":"bearer"}'),
      cli("moved", "call", "moved_echo", '{"text":"x"}'),
    ]);
    // The server stops accepting every token it issued: "renewed" must refresh with what was imported.
    as.expireAccessTokens();
    await inKeyringSession([
      cli("renewed", "call", "renewed_echo", '{"text":"refreshed"}'),
      cli("logout", "logout", "docs"),
      cli("again", "call", "docs_echo", '{"text":"after logout"}'),
      dump("after"),
    ]);
    const read = (name: string) => readFile(out(name), "utf8");

    expect(await read("write")).toContain('{"ok":true}');
    const first = await read("docs");
    expect(first).toContain('{"text":"imported"}');
    expect(first).toMatch(/exit 0/);
    expect(first).toContain(
      'Imported the OAuth login pi-mcp-adapter 2.x saved for "docs" (from its OS keyring)',
    );
    expect(first).toContain('Imported the OAuth login pi-mcp-adapter 2.x saved for "renewed"');
    expect(first).toContain('Imported the bearer token pi-mcp-adapter 2.x saved for "keyed"');
    expect(first).toMatch(
      /Did not import the OAuth login pi-mcp-adapter 2\.x saved for "moved": it was saved for another URL/,
    );
    expect(await read("renewed")).toMatch(/\{"text":"refreshed"\}[\s\S]*exit 0/);
    expect(await read("keyed")).toMatch(/\{"text":"bearer"\}[\s\S]*exit 0/);
    // No new login anywhere: the only authorization codes are the two logins 2.x made.
    const grants = as.tokenRequests.map((r) => r.get("grant_type"));
    expect(grants.filter((g) => g === "authorization_code")).toHaveLength(2);
    const refresh = as.tokenRequests.find((r) => r.get("grant_type") === "refresh_token");
    expect(refresh?.get("client_id")).toBe(renewed.clientId);
    expect(as.mcpAuthorizations).toContain(`Bearer ${docs.accessToken}`);

    // The record 2.x saved for another URL was not imported, and its token reached no server.
    expect(await read("moved")).not.toMatch(/exit 0/);
    expect(other.mcpAuthorizations.filter((h) => h.includes(docs.accessToken))).toEqual([]);
    // A logout is not undone by importing again at the next start.
    expect(await read("logout")).toMatch(/exit 0/);
    const again = await read("again");
    expect(again).not.toMatch(/exit 0/);
    expect(again).not.toContain("Imported");
    // 2.x's entries are as 2.x left them.
    const before = entries(await read("before"));
    expect(before.map((e) => e.split("\n")[0])).toEqual([
      "attribute.service = pi-mcp-adapter.bearer",
      "attribute.service = pi-mcp-adapter.oauth",
      "attribute.service = pi-mcp-adapter.oauth",
      "attribute.service = pi-mcp-adapter.oauth",
    ]);
    // Compared as digests, so a failure prints no value.
    expect(digest(entries(await read("after")))).toBe(digest(before));
    // Nothing the CLI printed holds a token.
    for (const name of ["docs", "renewed", "keyed", "moved", "logout", "again"]) {
      const text = await read(name);
      for (const secret of secrets) expect(text.includes(secret), `${name} output holds a token`).toBe(false);
    }
  }, 300_000);
});
