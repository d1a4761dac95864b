/**
 * A credential store that cannot be used must not stop a server that needs
 * no login, and must be named (with its fix) where a login is needed. Each
 * kind of keyring failure runs against two real HTTP MCP servers: one with no
 * auth (connect must succeed) and one answering 401 (test-kit's OAuth
 * authorization server; connect must fail as "needs auth" naming the store
 * problem). keytar is the real one for "no D-Bus" (this process loses its
 * session bus address) and a failing stand-in for the kinds a CI machine
 * cannot produce in-process: not installed, no Secret Service, locked.
 */
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  createFixtureServer,
  type HttpFixture,
  keytarUnavailableReason,
  type OAuthMcpServer,
  serveOAuthProtectedMcp,
  serveStreamableHttp,
  skipNotice,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CredentialStore,
  checkCredentialStore,
  createEncryptedFileStore,
  createKeyringStore,
  createServerOAuth,
  credentialStoreProblem,
  type KeytarLike,
  McpOAuthProvider,
  OAuthError,
  OAuthLogins,
  startOAuthLogin,
} from "../src/index.js";

// The keyring stores' lock files go to a temp dir, never the developer's agent dir.
const lockDir = path.join(tmpdir(), `oauth-store-failures-${process.pid}`);
afterAll(() => rm(lockDir, { recursive: true, force: true }));

const keytarMissing = keytarUnavailableReason();
if (keytarMissing && process.env.CI)
  throw new Error(`@github/keytar must load in CI; this test needs it: ${keytarMissing}`);
const keytarSkipped = skipNotice("real keytar without a D-Bus session bus", keytarMissing);

/** A keytar stand-in whose calls fail the way libsecret does (`reads` may instead answer null). */
function failingKeytar(message: string, reads: "fail" | "empty"): KeytarLike {
  const fail = async () => {
    throw new Error(message);
  };
  return {
    getPassword: reads === "empty" ? async () => null : fail,
    setPassword: fail,
    deletePassword: fail,
  };
}

interface FailureKind {
  kind: string;
  store: () => CredentialStore;
  code: string;
  /** What the message must say: the problem and its fix. */
  says: RegExp[];
}

const FIX = /oauthCredentialStore to "encrypted-file" with PI_MCP_ADAPTER_OAUTH_FILE_KEY/;
const kinds: FailureKind[] = [
  {
    kind: "keytar not installed",
    store: () =>
      createKeyringStore({
        lockDir,
        loadKeytar: () => Promise.reject(new Error("Cannot find package '@github/keytar'")),
      }),
    code: "store_unavailable",
    says: [/needs the optional dependency @github\/keytar/, /npm install --include=optional/, FIX],
  },
  {
    kind: "keytar's prebuilt binary without libsecret on the machine",
    store: () =>
      createKeyringStore({
        lockDir,
        loadKeytar: () =>
          Promise.reject(
            new Error("libsecret-1.so.0: cannot open shared object file: No such file or directory"),
          ),
      }),
    code: "store_unavailable",
    says: [/needs libsecret at run time/, /apt install libsecret-1-0/, FIX],
  },
  {
    kind: "no Secret Service on the bus",
    store: () =>
      createKeyringStore({
        lockDir,
        loadKeytar: async () =>
          failingKeytar("The name org.freedesktop.secrets was not provided by any .service files", "fail"),
      }),
    code: "store_unavailable",
    says: [/no Secret Service is running/, /gnome-keyring/, FIX],
  },
  {
    kind: "a locked keyring (reads answer null, writes fail)",
    store: () =>
      createKeyringStore({
        lockDir,
        loadKeytar: async () => failingKeytar("Cannot create an item in a locked collection", "empty"),
      }),
    code: "store_locked",
    says: [/keyring is locked/, /Unlock it/, FIX],
  },
  {
    kind: "an encrypted-file store without its key",
    store: () => createEncryptedFileStore({ dir: "/nonexistent/never-created", env: {} }),
    code: "file_key_missing",
    says: [/PI_MCP_ADAPTER_OAUTH_FILE_KEY/],
  },
];

let open: HttpFixture;
let as: OAuthMcpServer;
beforeAll(async () => {
  open = await serveStreamableHttp(() => createFixtureServer({ tools: [{ name: "echo" }] }));
  as = await serveOAuthProtectedMcp({ makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }) });
});
afterAll(async () => {
  await open?.close();
  await as?.close();
});

async function connect(url: string, store: CredentialStore): Promise<string[]> {
  const { provider } = createServerOAuth({ name: "h", url }, { store });
  const client = new Client({ name: "test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

async function expectStoreProblemOn401(store: CredentialStore, failure: Omit<FailureKind, "store" | "kind">) {
  const error = (await connect(as.url, store).catch((e: unknown) => e)) as OAuthError;
  expect(error).toBeInstanceOf(OAuthError);
  expect(error.code).toBe("not_authorized");
  // The name transports read as "needs auth" (not "could not connect").
  expect(error.name).toBe("UnauthorizedError");
  expect(error.message).toMatch(/MCP server "h" needs an OAuth login, but the .* cannot be used here/);
  for (const pattern of failure.says) expect(error.message).toMatch(pattern);
  expect(error.message).toMatch(/Then run \/mcp-auth h$/);
  expect(credentialStoreProblem(store)?.code).toBe(failure.code);
}

async function expectLoginRefusedEarly(store: CredentialStore, code: string) {
  const before = { authorize: as.authorizeRequests.length, registrations: as.registrations.length };
  const error = (await startOAuthLogin({ server: "h", url: as.url, store }).catch(
    (e: unknown) => e,
  )) as OAuthError;
  expect(error).toBeInstanceOf(OAuthError);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(/^Cannot log in to "h": /);
  // Refused before discovery, registration or any authorization URL.
  expect(as.authorizeRequests.length).toBe(before.authorize);
  expect(as.registrations.length).toBe(before.registrations);
  const logins = new OAuthLogins({ store, servers: () => [{ name: "h", url: as.url }] });
  await expect(logins.start("h")).rejects.toMatchObject({ code });
  expect(logins.isPending("h")).toBe(false);
}

describe.each(kinds)("credential store failure: $kind", (failure) => {
  it("a server that needs no auth connects", async () => {
    const store = failure.store();
    expect(await connect(open.url, store)).toEqual(["echo"]);
  });

  it("a 401 fails as needs-auth naming the store problem and its fix", async () => {
    await expectStoreProblemOn401(failure.store(), failure);
  });

  it("a login fails before the browser step", async () => {
    await expectLoginRefusedEarly(failure.store(), failure.code);
  });
});

describe.skipIf(keytarSkipped !== "")(
  `credential store failure: real keytar without a D-Bus session bus${keytarSkipped}`,
  () => {
    const saved: Record<string, string | undefined> = {};
    beforeAll(() => {
      // libsecret finds the bus through these; without them it tries to autolaunch one and cannot.
      for (const name of ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR"]) {
        saved[name] = process.env[name];
        delete process.env[name];
      }
    });
    afterAll(() => {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    });
    const store = () =>
      createKeyringStore({ lockDir, service: "pi-mcp-adapter-unit-test", timeoutMs: 10_000 });
    const failure = { code: "store_unavailable", says: [/no D-Bus session bus/, /dbus-run-session/, FIX] };

    it("a server that needs no auth connects", async () => {
      expect(await connect(open.url, store())).toEqual(["echo"]);
    });

    it("a 401 fails as needs-auth naming the missing bus and the fix", async () => {
      await expectStoreProblemOn401(store(), failure);
    });

    it("a login fails before the browser step", async () => {
      await expectLoginRefusedEarly(store(), failure.code);
    });
  },
);

describe("a store that works again", () => {
  it("forgets the problem once a check passes", async () => {
    let broken = true;
    const entries = new Map<string, string>();
    const store = createKeyringStore({
      lockDir,
      loadKeytar: async () => ({
        getPassword: async (_s, a) => entries.get(a) ?? null,
        setPassword: async (_s, a, p) => {
          if (broken) throw new Error("Cannot create an item in a locked collection");
          entries.set(a, p);
        },
        deletePassword: async (_s, a) => entries.delete(a),
      }),
    });
    await expect(checkCredentialStore(store)).rejects.toMatchObject({ code: "store_locked" });
    expect(credentialStoreProblem(store)?.code).toBe("store_locked");
    broken = false;
    await checkCredentialStore(store);
    expect(credentialStoreProblem(store)).toBeUndefined();
    expect(entries.size).toBe(0); // the probe entry is removed again
    // A working store gives the plain "run /mcp-auth" message.
    const error = (await connect(as.url, store).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('MCP server "h" needs an OAuth login: run /mcp-auth h');
  });
});

it("a provider for a login (onAuthorizationUrl) does not hide store failures", async () => {
  const store = kinds[0]?.store() as CredentialStore;
  const provider = new McpOAuthProvider({ server: "h", url: as.url, store, onAuthorizationUrl: () => {} });
  await expect(provider.tokens()).rejects.toMatchObject({ code: "store_unavailable" });
});
