/**
 * The error a connection gets when a server wants credentials it does not
 * have. Most such servers want an OAuth login (`/mcp-auth`); but a server or
 * gateway that answers 401 and advertises no OAuth at all — no
 * protected-resource metadata, no authorization-server metadata — most
 * likely wants an API key or token in a header, so the message says that
 * first instead of sending the user to a login that cannot work.
 */
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError, OAuthLoginRequiredError } from "../errors.js";
import type { CredentialStore } from "../stores/credential-store.js";
import { credentialStoreProblem } from "../stores/store-problems.js";

const STORE_LABELS: Record<CredentialStore["kind"], string> = {
  keyring: "OS keyring credential store",
  "encrypted-file": "encrypted-file credential store",
  memory: "memory credential store",
};

/** What the failed connection knew: the server's name, the store, and what discovery found. */
export interface LoginNeededContext {
  server: string;
  store: CredentialStore;
  /** What the SDK's discovery saved for this flow; undefined when no discovery ran. */
  discovery: OAuthDiscoveryState | undefined;
}

export function loginNeededError(context: LoginNeededContext): OAuthError {
  const { server, store, discovery } = context;
  if (discovery && !discovery.resourceMetadata && !discovery.authorizationServerMetadata) {
    // Not the login-required error: nothing here is fixed by /mcp-auth alone.
    return new OAuthError(
      "not_authorized",
      `MCP server "${server}" answered 401 and offers no OAuth login (no OAuth metadata at ` +
        `${new URL(discovery.authorizationServerUrl).origin}): if it expects an API key or token, set it in ` +
        `the server's "headers" or "bearerTokenEnv"; if it uses OAuth without metadata, run /mcp-auth ${server}`,
    );
  }
  const problem = credentialStoreProblem(store);
  if (problem) {
    return new OAuthLoginRequiredError(
      `MCP server "${server}" needs an OAuth login, but the ${STORE_LABELS[store.kind]} ` +
        `cannot be used here. ${problem.message.replace(/\.$/, "")}. Then run /mcp-auth ${server}`,
      { cause: problem },
    );
  }
  return new OAuthLoginRequiredError(`MCP server "${server}" needs an OAuth login: run /mcp-auth ${server}`);
}
