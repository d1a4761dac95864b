#!/usr/bin/env node
import { loadSkill, readSkillFile } from "@pi-mcp-adapter/catalog";
import { checkSkillListing } from "@pi-mcp-adapter/catalog/schemas";
/**
 * The MCP conformance client for pi-mcp-adapter, built from our packages the
 * way the adapter uses them: `@pi-mcp-adapter/transport` connects with the
 * product's own negotiation (`protocol: "auto"`: 2026-07-28 where the server
 * offers it, the classic handshake otherwise) and answers elicitation through
 * `ClientHandlers`; `@pi-mcp-adapter/oauth` does every OAuth step (provider,
 * challenges noted on the connection's fetch, logins through the paste flow
 * with its state check, machine grants).
 *
 *   node apps/e2e/conformance/client.mjs <server-url>
 *
 * The conformance runner appends the URL and sets MCP_CONFORMANCE_SCENARIO
 * (and MCP_CONFORMANCE_CONTEXT for scenarios that hand out credentials or
 * arguments). Its authorization servers approve at once, so "the browser"
 * here is a fetch that stops at the redirect and hands the address to
 * `login.complete`, exactly what a user pastes on a headless host. What the
 * client does once connected — the calls a model or a user would make — is
 * chosen per scenario in `EXERCISES`. Skills (SEP-2640) go through the
 * product's own skills code (`@pi-mcp-adapter/catalog`: the listing checked
 * entry by entry, a skill loaded and verified, a supporting file read only
 * after its skill loaded), as the adapter does when the model asks.
 */
import {
  clientCredentialsGrant,
  createDpopFetch,
  createMemoryCredentialStore,
  crossAppAccessGrant,
  jwtBearerGrant,
  loadOrCreateDpopKey,
  McpOAuthProvider,
  OAuthChallenges,
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
  protocol: "auto",
  source: { file: "conformance", key: SERVER },
};

/** DPoP scenarios: every token request and token use carries a proof from a stored ES256 key. */
const baseFetch = scenario.startsWith("auth/dpop")
  ? createDpopFetch({
      key: () =>
        loadOrCreateDpopKey(new McpOAuthProvider({ server: SERVER, url: serverUrl, store }).credentials),
    })
  : fetch;
/** The server's 401/403 challenges, noted as the adapter's connections note them, for the next login. */
const challenges = new OAuthChallenges();
const serverFetch = challenges.observe(SERVER, baseFetch);

/**
 * A user accepting an elicitation form as proposed: every field the server
 * gave a default keeps it (SEP-1034), the others stay empty.
 */
const handlers = {
  elicitation: async ({ requestedSchema }) => ({
    action: "accept",
    content: Object.fromEntries(
      Object.entries(requestedSchema?.properties ?? {})
        .filter(([, field]) => field.default !== undefined)
        .map(([key, field]) => [key, field.default]),
    ),
  }),
};

function clientOptions() {
  switch (scenario) {
    case "auth/client-credentials-basic":
      return {
        clientId: context.client_id,
        clientSecret: context.client_secret,
        tokenEndpointAuthMethod: "client_secret_basic",
        machineGrant: clientCredentialsGrant(),
      };
    case "auth/client-credentials-jwt":
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
    case "auth/cross-app-access-complete-flow":
    case "auth/enterprise-managed-authorization":
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
    case "auth/wif-jwt-bearer":
      return {
        clientId: context.client_id,
        tokenEndpointAuthMethod: "none",
        machineGrant: jwtBearerGrant({ assertion: context.valid_jwt }),
      };
    case "auth/pre-registration":
      return { clientId: context.client_id, clientSecret: context.client_secret };
    default:
      return { clientName: "pi-mcp-adapter conformance", clientMetadataUrl: CLIENT_METADATA_URL };
  }
}

/** Connects the way the adapter's runtime does: the definition, its OAuth provider and fetch. */
function connect() {
  const provider = new McpOAuthProvider({ server: SERVER, url: serverUrl, store, ...clientOptions() });
  return connectServer(definition, {
    authProvider: () => provider,
    fetch: serverFetch,
    handlers,
    client: { name: "pi-mcp-adapter-conformance", version: "0.1.0" },
  });
}

/** `/mcp-auth`: plays the browser (the test server approves at once) and pastes the redirect address. */
async function login() {
  const challenge = challenges.get(SERVER);
  const pending = await startOAuthLogin({
    server: SERVER,
    url: serverUrl,
    store,
    redirectUrl: "http://127.0.0.1:3000/callback",
    ...(challenge ? { challenge } : {}),
    fetch: serverFetch,
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
    if (e?.name === "UnauthorizedError" || e?.code === "needs_auth") return true;
  }
  // A 401/403 challenge during this attempt (a step-up arrives as a failed call, not a failed connect).
  return challenges.get(SERVER) !== undefined;
}

/** Runs `work` on a fresh connection, logging in (again) when the server asks for it. */
async function withAuth(work) {
  for (let logins = 0; ; logins++) {
    challenges.clear(SERVER);
    let connection;
    try {
      connection = await connect();
      await work(connection);
      return;
    } catch (error) {
      if (!needsLogin(error)) throw error;
      if (logins >= MAX_LOGINS) {
        throw new Error(`still refused after ${MAX_LOGINS} logins: ${error?.message ?? error}`, {
          cause: error,
        });
      }
    } finally {
      await connection?.close().catch(() => {});
    }
    await login();
  }
}

/** Arguments for a tool from its input schema: a plain value for each required property. */
function sampleArguments(schema) {
  const samples = { string: "conformance", integer: 1, number: 1, boolean: true, object: {}, array: [] };
  return Object.fromEntries(
    (schema?.required ?? []).map((key) => [key, samples[schema.properties?.[key]?.type] ?? "conformance"]),
  );
}

/** Lists the server's skills as the adapter does at connect: entries only, no file read. */
async function listSkills(connection) {
  return checkSkillListing((await connection.listSkills()) ?? []).skills;
}

/** The model asks for each skill, then for a supporting file it names; a skill that fails verification is refused. */
async function useEverySkill(connection) {
  for (const skill of await listSkills(connection)) {
    const loaded = await loadSkill(connection, skill.uri, skill);
    const supporting = Array.isArray(loaded.entry.resources)
      ? loaded.entry.resources.find((file) => file.uri !== loaded.entry.uri)
      : undefined;
    if (supporting) await readSkillFile(connection, loaded.entry, supporting.uri);
  }
}

async function callEveryTool(connection, tools) {
  for (const tool of tools) await connection.callTool(tool.name, sampleArguments(tool.inputSchema));
}

/** What each scenario asks the client to do once connected and tools are listed. */
const EXERCISES = {
  tools_call: (c) => c.callTool("add_numbers", { a: 5, b: 3 }),
  "sse-retry": (c) => c.callTool("test_reconnection", {}),
  "elicitation-sep1034-client-defaults": (c) => c.callTool("test_client_elicitation_defaults", {}),
  /** Echo the focal tool's input schema as we hold it, so the server can see what survived. */
  "json-schema-2020-12-preservation": (c, tools) =>
    c.callTool("json_schema_echo", {
      schema: tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema,
    }),
  /** Input-required rounds: each tool asks for input, our handler answers, the call is retried. */
  "sep-2322-client-request-state": callEveryTool,
  /** Skills are listed at connect; nothing is loaded until asked. */
  "sep-2640-client-no-prefetch": listSkills,
  "sep-2640-client-verify-digest": useEverySkill,
  "sep-2640-client-verify-size": useEverySkill,
  "sep-2640-client-verify-frontmatter": useEverySkill,
  "http-custom-headers": async (c) => {
    for (const call of context.toolCalls ?? []) await c.callTool(call.name, call.arguments);
  },
  /** Only the tools the listing kept: those with invalid `x-mcp-header` are dropped. */
  "http-invalid-tool-headers": callEveryTool,
  /** Every kind of request that carries the standard headers. */
  "http-standard-headers": async (c, tools) => {
    await callEveryTool(c, tools);
    for (const resource of await c.listResources()) await c.readResource(resource.uri);
    for (const prompt of await c.listPrompts()) await c.getPrompt(prompt.name, {});
  },
};

async function main() {
  await withAuth(async (connection) => {
    const tools = await connection.listTools();
    const exercise = EXERCISES[scenario];
    if (exercise) await exercise(connection, tools);
    else if (scenario.startsWith("auth/") && tools.some((tool) => tool.name === "test-tool")) {
      await connection.callTool("test-tool", {});
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
