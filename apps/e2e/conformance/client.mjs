#!/usr/bin/env node
/**
 * The MCP conformance client for pi-mcp-adapter, built from our packages:
 * `@pi-mcp-adapter/transport` holds the MCP session and
 * `@pi-mcp-adapter/oauth` does every OAuth step (provider, logins through the
 * paste flow with its state check, machine grants, Cross-App Access).
 *
 *   node apps/e2e/conformance/client.mjs <server-url>
 *
 * The conformance runner appends the URL and sets MCP_CONFORMANCE_SCENARIO
 * (and MCP_CONFORMANCE_CONTEXT for scenarios that hand out credentials).
 * Its authorization servers approve at once, so "the browser" here is a
 * fetch that stops at the redirect and hands the address to `login.complete`,
 * exactly what a user pastes on a headless host.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  clientCredentialsGrant,
  createDpopFetch,
  createMemoryCredentialStore,
  crossAppAccessGrant,
  loadOrCreateDpopKey,
  McpOAuthProvider,
  OAuthError,
  privateKeyJwtAuthentication,
  startOAuthLogin,
} from "@pi-mcp-adapter/oauth";
import { connectServer } from "@pi-mcp-adapter/transport";

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const SERVER = "conformance";
/** Used as client_id when the authorization server supports client ID metadata documents. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
/** Logins per run: a server that keeps asking for more scope must not loop us forever. */
const MAX_LOGINS = 3;

const store = createMemoryCredentialStore();
const definition = {
  name: SERVER,
  transport: "http",
  url: serverUrl,
  lifecycle: "lazy",
  protocol: "legacy",
  source: { file: "conformance", key: SERVER },
};

/** DPoP scenarios: every token request and token use carries a proof from a stored ES256 key. */
const baseFetch = scenario.startsWith("auth/dpop")
  ? createDpopFetch({
      key: () =>
        loadOrCreateDpopKey(new McpOAuthProvider({ server: SERVER, url: serverUrl, store }).credentials),
    })
  : fetch;

/** Remembers the last 401/403 challenge, as the login needs its scope. */
let challenge;
const observingFetch = async (input, init) => {
  const response = await baseFetch(input, init);
  if (response.status === 401 || response.status === 403) {
    const header = response.headers.get("www-authenticate") ?? "";
    const param = (name) => new RegExp(`${name}="([^"]*)"`).exec(header)?.[1];
    challenge = {
      status: response.status,
      scope: param("scope"),
      resourceMetadataUrl: param("resource_metadata"),
    };
  }
  return response;
};

function clientOptions() {
  if (scenario === "auth/client-credentials-basic") {
    return {
      clientId: context.client_id,
      clientSecret: context.client_secret,
      tokenEndpointAuthMethod: "client_secret_basic",
      machineGrant: clientCredentialsGrant(),
    };
  }
  if (scenario === "auth/client-credentials-jwt") {
    return {
      clientId: context.client_id,
      tokenEndpointAuthMethod: "private_key_jwt",
      addClientAuthentication: privateKeyJwtAuthentication({
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        alg: context.signing_algorithm ?? "ES256",
      }),
      machineGrant: clientCredentialsGrant(),
    };
  }
  if (
    scenario === "auth/cross-app-access-complete-flow" ||
    scenario === "auth/enterprise-managed-authorization"
  ) {
    return {
      clientId: context.client_id,
      clientSecret: context.client_secret,
      tokenEndpointAuthMethod: "client_secret_basic",
      machineGrant: crossAppAccessGrant({
        idpTokenEndpoint: context.idp_token_endpoint,
        idpClientId: context.idp_client_id,
        idToken: context.idp_id_token,
      }),
    };
  }
  if (scenario === "auth/pre-registration") {
    return { clientId: context.client_id, clientSecret: context.client_secret };
  }
  return { clientName: "pi-mcp-adapter conformance", clientMetadataUrl: CLIENT_METADATA_URL };
}

async function connect() {
  const provider = new McpOAuthProvider({ server: SERVER, url: serverUrl, store, ...clientOptions() });
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl), {
    authProvider: provider,
    fetch: observingFetch,
  });
  return connectServer(definition, {
    transport,
    client: { name: "pi-mcp-adapter-conformance", version: "0.1.0" },
  });
}

/** Plays the browser (the test server approves at once) and pastes the redirect address. */
async function login() {
  const pending = await startOAuthLogin({
    server: SERVER,
    url: serverUrl,
    store,
    redirectUrl: "http://127.0.0.1:3000/callback",
    challenge: challenge && { scope: challenge.scope, resourceMetadataUrl: challenge.resourceMetadataUrl },
    fetch: observingFetch,
    ...clientOptions(),
  });
  if (pending.status === "authorized") return;
  const response = await fetch(pending.authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`The authorization endpoint answered ${response.status} without a redirect`);
  await pending.complete(location);
}

function needsLogin(error) {
  for (let e = error; e; e = e.cause) {
    if (e instanceof OAuthError && e.code === "not_authorized") return true;
    if (e?.name === "UnauthorizedError") return true;
  }
  return challenge?.status === 403 || challenge?.status === 401;
}

/** Runs `work` on a fresh connection, logging in (again) when the server asks for it. */
async function withAuth(work) {
  for (let logins = 0; ; logins++) {
    challenge = undefined;
    let connection;
    try {
      connection = await connect();
      await work(connection);
      return;
    } catch (error) {
      if (!needsLogin(error) || logins >= MAX_LOGINS) throw error;
    } finally {
      await connection?.close().catch(() => {});
    }
    await login();
  }
}

/** Elicitation is served by the SDK client directly until the adapter's elicitation lands. */
async function elicitationDefaults() {
  const client = new Client(
    { name: "pi-mcp-adapter-conformance", version: "0.1.0" },
    { capabilities: { elicitation: { form: { applyDefaults: true } } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
  const transport = new StreamableHTTPClientTransport(new URL(serverUrl));
  await client.connect(transport);
  await client.callTool({ name: "test_client_elicitation_defaults", arguments: {} });
  await transport.close();
}

async function main() {
  if (scenario === "elicitation-sep1034-client-defaults") return elicitationDefaults();
  await withAuth(async (connection) => {
    const tools = await connection.listTools();
    if (scenario === "tools_call") {
      await connection.callTool("add_numbers", { a: 5, b: 3 });
    } else if (scenario === "sse-retry") {
      await connection.callTool("test_reconnection", {});
    } else if (scenario.startsWith("auth/")) {
      if (tools.some((tool) => tool.name === "test-tool")) await connection.callTool("test-tool", {});
    }
  });
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`conformance client failed (${scenario}): ${error?.message ?? error}`);
    process.exit(1);
  },
);
