/**
 * The one-time import of what pi-mcp-adapter 2.x saved. Every 2.x entry here
 * is written by 2.36 itself (`fixtures/write-as-2.36.mjs` runs its published
 * store modules), into its encrypted credential file and into a real
 * gnome-keyring over D-Bus; the keyring part is read back with `secret-tool`,
 * as a user's machine reads it (no binding installed). Bad input is normal input: a value that does not
 * parse, tampered ciphertext, no D-Bus, no binding — each is one outcome with
 * its reason, and nothing else breaks. No token is in any outcome or message.
 */
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDir, skipNotice } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import {
  createMemoryCredentialStore,
  createV2StoreReader,
  describeV2ImportOutcome,
  getMcpOAuthTokensForUrl,
  importV2Credentials,
  logoutMcpOAuth,
} from "../src/index.js";

const writer = fileURLToPath(new URL("./fixtures/write-as-2.36.mjs", import.meta.url));
const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const distStore = fileURLToPath(new URL("../dist/store.js", import.meta.url));
const URL_DOCS = "https://docs.example.com/mcp";

/** Runs 2.36's own store modules (through the fixture) with `env`, optionally inside `wrap`. */
function writeAs236(writes: unknown[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [writer],
      { env: { ...env, V2_WRITES: JSON.stringify(writes) } },
      (_e, out, err) => resolve(out + err),
    ),
  );
}

/** No keyring binding: the import still reads 2.x's encrypted file, and says nothing of the keyring. */
const noKeyring = () => Promise.reject(new Error("no binding here"));

describe("2.x's encrypted credential file (written by 2.36)", () => {
  it("imports once, bound to the URL; expired without refresh, another URL and tampered files are skipped", async () => {
    await using dir = await createTempDir("pi-mcp-v2-file-");
    const env = {
      ...process.env,
      PI_CODING_AGENT_DIR: dir.join("agent"),
      PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64"),
    };
    const nowSec = Math.floor(Date.now() / 1000);
    const tokens = (accessToken: string, extra = {}) => ({ accessToken, expiresAt: nowSec + 600, ...extra });
    const written = await writeAs236(
      [
        {
          oauth: "docs",
          url: URL_DOCS,
          encryptedFile: true,
          clientInfo: { clientId: "cid", clientSecret: "cs-secret", redirectUris: ["http://127.0.0.1:1/cb"] },
          tokens: tokens("at-docs-secret", { refreshToken: "rt-docs-secret", scope: "read" }),
        },
        {
          oauth: "stale",
          url: URL_DOCS,
          encryptedFile: true,
          tokens: tokens("at-stale", { expiresAt: nowSec - 5 }),
        },
        {
          oauth: "renew",
          url: URL_DOCS,
          encryptedFile: true,
          tokens: tokens("at-renew", { expiresAt: nowSec - 5, refreshToken: "rt-renew" }),
        },
        {
          oauth: "moved",
          url: "https://old.example.com/mcp",
          encryptedFile: true,
          tokens: tokens("at-moved"),
        },
        { oauth: "broken", url: URL_DOCS, encryptedFile: true, tokens: tokens("at-broken") },
        { oauth: "mine", url: URL_DOCS, encryptedFile: true, tokens: tokens("at-old") },
      ],
      env,
    );
    expect(written).toContain('{"ok":true}');
    // One of 2.x's files, tampered with: it must not decrypt.
    const root = path.join(env.PI_CODING_AGENT_DIR, "mcp-oauth-encrypted");
    const files = await readdir(root);
    expect(files).toHaveLength(6);
    const { createHash } = await import("node:crypto");
    const brokenFile = path.join(
      root,
      `sha256-${createHash("sha256").update("broken").digest("hex")}`,
      "credentials.json",
    );
    const envelope = JSON.parse(await readFile(brokenFile, "utf8"));
    envelope.ciphertext = Buffer.from("tampered").toString("base64");
    await writeFile(brokenFile, JSON.stringify(envelope));
    const before = await stat(path.join(root, files[0] as string, "credentials.json"));

    const store = createMemoryCredentialStore();
    // Logged in with this version already: kept as it is.
    const mine = JSON.stringify({
      version: 1,
      server: "mine",
      url: URL_DOCS,
      tokens: { access_token: "a", token_type: "Bearer" },
    });
    await store.set("mine", mine);
    const servers = ["docs", "stale", "renew", "broken", "none", "mine"].map((name) => ({
      name,
      url: URL_DOCS,
      kind: "oauth" as const,
    }));
    servers.push({ name: "moved", url: "https://new.example.com/mcp", kind: "oauth" });
    const reader = createV2StoreReader({ env, loadKeyring: noKeyring });
    const outcomes = await importV2Credentials({ servers, store, reader });
    expect(outcomes).toEqual([
      { server: "docs", kind: "oauth", status: "imported", from: "encrypted file" },
      { server: "stale", kind: "oauth", status: "skipped", reason: "expired" },
      { server: "renew", kind: "oauth", status: "imported", from: "encrypted file" },
      {
        server: "broken",
        kind: "oauth",
        status: "skipped",
        reason: "unreadable",
        detail: expect.stringContaining("does not decrypt with PI_MCP_ADAPTER_OAUTH_FILE_KEY"),
      },
      {
        server: "none",
        kind: "oauth",
        status: "skipped",
        reason: "unavailable",
        detail: "2.x's keyring entries cannot be read here: no binding here",
        again: true,
      },
      { server: "mine", kind: "oauth", status: "skipped", reason: "store_has_credentials" },
      {
        server: "moved",
        kind: "oauth",
        status: "skipped",
        reason: "url_mismatch",
        detail: "2.x saved it for https://old.example.com/mcp",
      },
    ]);
    const imported = JSON.parse((await store.get("docs")) as string);
    expect(imported).toMatchObject({
      url: URL_DOCS,
      tokens: { access_token: "at-docs-secret", refresh_token: "rt-docs-secret", scope: "read" },
      client: { client_id: "cid", client_secret: "cs-secret", redirect_uris: ["http://127.0.0.1:1/cb"] },
    });
    expect(imported.tokens.expires_in).toBeGreaterThan(590);
    expect(JSON.parse((await store.get("renew")) as string).tokens).toMatchObject({ expires_in: 0 });
    expect(await store.get("moved")).toBeUndefined();
    expect(await store.get("mine")).toBe(mine);
    expect(await store.get("stale")).toBeUndefined();
    // What the user reads names the server and the reason, never a token or secret.
    const lines = outcomes.map(describeV2ImportOutcome).filter(Boolean).join("\n");
    expect(lines).toContain('Imported the OAuth login pi-mcp-adapter 2.x saved for "docs"');
    expect(lines).toContain('"moved": it was saved for another URL');
    expect(lines).toContain('"stale": its access token expired');
    for (const secret of ["at-", "rt-", "cs-secret"]) expect(lines).not.toContain(secret);

    // Once: a logout is not undone, and 2.x's files are as they were.
    await logoutMcpOAuth("docs", { store, fetch: async () => new Response(null, { status: 404 }) });
    const again = await importV2Credentials({ servers: servers.slice(0, 1), store, reader });
    expect(again).toEqual([{ server: "docs", kind: "oauth", status: "skipped", reason: "already_imported" }]);
    expect(await getMcpOAuthTokensForUrl("docs", URL_DOCS, { store })).toBeUndefined();
    const after = await stat(path.join(root, files[0] as string, "credentials.json"));
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(await readdir(root)).toHaveLength(6);
  });

  it("says once that 2.x's file needs its key, and imports it at a later start that has the key", async () => {
    await using dir = await createTempDir("pi-mcp-v2-key-");
    const key = randomBytes(32).toString("base64");
    const env = {
      ...process.env,
      PI_CODING_AGENT_DIR: dir.join("agent"),
      PI_MCP_ADAPTER_OAUTH_FILE_KEY: key,
    };
    const written = await writeAs236(
      [{ oauth: "docs", url: URL_DOCS, encryptedFile: true, tokens: { accessToken: "at-keyed" } }],
      env,
    );
    expect(written).toContain('{"ok":true}');
    const { PI_MCP_ADAPTER_OAUTH_FILE_KEY: _, ...keyless } = env;
    const store = createMemoryCredentialStore();
    const servers = [{ name: "docs", url: URL_DOCS, kind: "oauth" as const }];
    const run = (runEnv: NodeJS.ProcessEnv) =>
      importV2Credentials({
        servers,
        store,
        reader: createV2StoreReader({ env: runEnv, loadKeyring: noKeyring }),
      });

    const first = await run(keyless);
    expect(first.map(describeV2ImportOutcome)).toEqual([
      expect.stringMatching(
        /^Could not look for an OAuth login pi-mcp-adapter 2\.x saved for "docs": .*needs PI_MCP_ADAPTER_OAUTH_FILE_KEY/,
      ),
    ]);
    expect((await run(keyless)).map(describeV2ImportOutcome)).toEqual([undefined]);
    expect(await run(env)).toEqual([
      { server: "docs", kind: "oauth", status: "imported", from: "encrypted file" },
    ]);
    expect(JSON.parse((await store.get("docs")) as string).tokens.access_token).toBe("at-keyed");
  });
});

const have = (c: string) => spawnSync("sh", ["-c", `command -v ${c}`]).status === 0;
const missing = ["dbus-run-session", "gnome-keyring-daemon", "secret-tool"].filter((c) => !have(c));
const keyringSkipped = skipNotice(
  "2.x keyring import (gnome-keyring)",
  missing.length
    ? `${missing.join(", ")} not installed (apt-get install gnome-keyring dbus-x11 libsecret-tools)`
    : undefined,
);

/** Our importer, reading 2.x's keyring with the real binding, in the same session as `before`. */
const importScript = `
import { createMemoryCredentialStore, describeV2ImportOutcome, importV2Credentials } from ${JSON.stringify(dist)};
import { readStoredBearerToken } from ${JSON.stringify(distStore)};
const store = createMemoryCredentialStore();
const outcomes = await importV2Credentials({ servers: JSON.parse(process.env.SERVERS), store });
// The next start of the same session: what the first one settled is not read again.
const again = await importV2Credentials({ servers: JSON.parse(process.env.SERVERS), store });
const second = again.map((o) => o.reason);
const secondLines = again.map(describeV2ImportOutcome).filter(Boolean);
let bearerMatches = false;
try { bearerMatches = (await readStoredBearerToken(store, "long", process.env.URL_DOCS)) === process.env.LONG; } catch {}
console.log(JSON.stringify({ outcomes, second, secondLines, bearerMatches }));
`;

describe.skipIf(keyringSkipped !== "")(`2.x's OS keyring entries (written by 2.36)${keyringSkipped}`, () => {
  it("reads a chunked bearer token and reports a value that does not parse; without D-Bus, stays quiet", async () => {
    await using dir = await createTempDir("pi-mcp-v2-keyring-");
    const long = `tok-${randomBytes(800).toString("hex")}`; // 2.36 splits a record over 1000 characters
    const servers = [
      { name: "long", url: URL_DOCS, kind: "bearer" },
      { name: "garbled", url: URL_DOCS, kind: "oauth" },
      { name: "absent", url: URL_DOCS, kind: "oauth" },
      { name: "twoline", url: URL_DOCS, kind: "bearer" },
    ];
    const { createHash } = await import("node:crypto");
    const garbledAccount = `sha256-${createHash("sha256").update("garbled").digest("hex")}`;
    const script = [
      `printf %s pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null`,
      `${JSON.stringify(process.execPath)} ${JSON.stringify(writer)} >/dev/null`,
      `printf %s 'not json' | secret-tool store --label=x service pi-mcp-adapter.oauth username ${garbledAccount}`,
      `${JSON.stringify(process.execPath)} --input-type=module -e "$IMPORT_SCRIPT"`,
      // Locked (no prompter can unlock it here), 2.x's keyring reads as empty.
      `gdbus call --session --dest org.freedesktop.secrets --object-path /org/freedesktop/secrets ` +
        `--method org.freedesktop.Secret.Service.Lock "['/org/freedesktop/secrets/collection/login']" >/dev/null`,
      `${JSON.stringify(process.execPath)} --input-type=module -e "$IMPORT_SCRIPT"`,
    ].join("; ");
    const env = {
      ...process.env,
      HOME: dir.path,
      XDG_DATA_HOME: dir.join("share"),
      V2_WRITES: JSON.stringify([
        { bearer: "long", url: URL_DOCS, token: long },
        // 2.36 stored what it was given; a token of two lines is not one this version sends.
        { bearer: "twoline", url: URL_DOCS, token: "first\nsecond" },
      ]),
      IMPORT_SCRIPT: importScript,
      SERVERS: JSON.stringify(servers),
      URL_DOCS,
      LONG: long,
    };
    const run = (file: string, args: string[], runEnv: NodeJS.ProcessEnv) =>
      new Promise<string>((resolve) =>
        execFile(file, args, { env: runEnv, timeout: 120_000 }, (_e, out, err) => resolve(out + err)),
      );
    const output = await run("dbus-run-session", ["--", "sh", "-c", script], env);
    expect(output.includes(long), "output holds the token").toBe(false);
    const [result, locked] = output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(result.bearerMatches).toBe(true);
    expect(result.outcomes).toEqual([
      { server: "long", kind: "bearer", status: "imported", from: "OS keyring" },
      { server: "garbled", kind: "oauth", status: "skipped", reason: "unreadable" },
      { server: "absent", kind: "oauth", status: "skipped", reason: "nothing_stored" },
      { server: "twoline", kind: "bearer", status: "skipped", reason: "unreadable" },
    ]);
    expect(result.second).toEqual([
      "already_imported",
      "already_imported",
      "nothing_stored",
      "already_imported",
    ]);
    // "Nothing stored" settles a server only once a write to the keyring (our marker) shows it
    // unlocked: locked, it reads as empty, so with another store (memory here) it is read again.
    expect(locked.outcomes.map((o: { reason: string }) => o.reason)).toEqual(Array(4).fill("nothing_stored"));
    expect(locked.second).toEqual(Array(4).fill("nothing_stored"));

    // No session bus: every server is skipped with the reason, and the run does not fail.
    const noBus: NodeJS.ProcessEnv = { ...env };
    for (const name of ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR"]) delete noBus[name];
    const alone = await run(process.execPath, ["--input-type=module", "-e", importScript], noBus);
    const skipped = JSON.parse(
      alone
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .at(-1) ?? "{}",
    );
    expect(skipped.outcomes.map((o: { reason: string }) => o.reason)).toEqual(Array(4).fill("unavailable"));
    expect(skipped.outcomes[0].detail).toMatch(/no D-Bus session bus/);
    // Nothing shows 2.x saved anything this start can reach: no notice (most machines have no bus),
    // and every start looks again.
    expect(skipped.outcomes.map(describeV2ImportOutcome)).toEqual(Array(4).fill(undefined));
    expect(skipped.second).toEqual(Array(4).fill("unavailable"));
    expect(skipped.secondLines).toEqual([]);
  }, 180_000);
});
