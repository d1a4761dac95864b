/**
 * `oauth.authServerMetadataUrl` (carried over from pi-mcp-adapter 2.x): the
 * authorization server's RFC 8414 / OpenID metadata document, read from the
 * configured address instead of being discovered through the MCP server's
 * protected-resource metadata — for servers that publish none. The
 * document's `issuer` becomes the authorization server the flow uses, so
 * stored credentials bind to it as after discovery.
 */
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthError } from "../errors.js";

export async function loadConfiguredMetadata(
  server: string,
  metadataUrl: string,
  fetch: FetchLike | undefined,
): Promise<OAuthDiscoveryState> {
  const fail = (reason: string, cause?: unknown) =>
    new OAuthError(
      "authorization_failed",
      `OAuth for "${server}": oauth.authServerMetadataUrl (${metadataUrl}) ${reason}`,
      cause === undefined ? undefined : { cause },
    );
  let response: Response;
  try {
    response = await (fetch ?? globalThis.fetch)(metadataUrl, { headers: { accept: "application/json" } });
  } catch (error) {
    throw fail("could not be fetched", error);
  }
  if (!response.ok) throw fail(`answered HTTP ${response.status}`);
  const metadata = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  const issuer = metadata?.issuer;
  if (typeof issuer !== "string" || typeof metadata?.authorization_endpoint !== "string") {
    throw fail("is not an authorization server metadata document (no issuer or authorization_endpoint)");
  }
  return {
    authorizationServerUrl: issuer,
    authorizationServerMetadata: metadata as unknown as OAuthDiscoveryState["authorizationServerMetadata"],
  };
}
