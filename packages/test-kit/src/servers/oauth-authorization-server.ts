/**
 * A real OAuth-protected MCP endpoint for tests, all on one 127.0.0.1 port:
 * RFC 9728 protected-resource metadata, RFC 8414 authorization-server
 * metadata, dynamic client registration, an authorization endpoint that
 * approves at once (302 back with `code` and `state`), a token endpoint
 * (authorization code with PKCE S256 checked, refresh with rotation),
 * RFC 7009 revocation, and `/mcp` which answers 401 with a
 * `WWW-Authenticate` challenge unless a live access token is presented (and
 * 403 `insufficient_scope` when a required scope is set and not granted).
 * Its protected-resource metadata may be pointed at another authorization
 * server (a migration). Everything it saw is recorded for assertions.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { answerStatelessMcp } from "./stateless-mcp-answer.js";

export interface OAuthMcpServerOptions {
  /** Builds the MCP server behind the bearer check (one per request: stateless). */
  makeServer: () => Server;
  /** Advertise this `issuer` instead of the real one (to test the issuer check). */
  issuerOverride?: string;
  accessTokenTtlSec?: number;
  scopesSupported?: string[];
  /** Pre-registered confidential clients. */
  clients?: Array<{ client_id: string; client_secret: string }>;
  /**
   * Headers every request but the browser's `/authorize` must carry (a gate
   * such as Cloudflare Access in front of the servers); others get 403.
   */
  requiredHeaders?: Record<string, string>;
  /** Advertise `client_id_metadata_document_supported` and accept https URL client IDs (CIMD). */
  clientIdMetadataDocuments?: boolean;
}

export interface OAuthMcpServer extends AsyncDisposable {
  /** The protected MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The authorization server (issuer) URL. */
  issuer: string;
  registrations: Array<{
    client_id: string;
    client_name?: string;
    redirect_uris: string[];
    client_uri?: string;
    logo_uri?: string;
  }>;
  /** Paths of requests the `requiredHeaders` gate refused. */
  gateRefusals: string[];
  /** Every request's path and headers, in order. */
  requestLog: Array<{ path: string; headers: IncomingMessage["headers"] }>;
  authorizeRequests: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  revoked: string[];
  /** `Authorization` headers `/mcp` received, in order. */
  mcpAuthorizations: string[];
  /** Plays the browser: follows the authorization URL and returns where the server redirects. */
  approve(authorizationUrl: string | URL): Promise<string>;
  /** Makes every issued access token invalid (the next call gets 401). */
  expireAccessTokens(): void;
  /**
   * From now on `/mcp` answers a live token that lacks any of `scope` with
   * 403 `insufficient_scope` naming `scope` (undefined: no requirement).
   */
  requireScope(scope: string | undefined): void;
  /**
   * A migration: from now on the protected-resource metadata names `other`'s
   * authorization server, and `/mcp` accepts only the tokens `other` issued.
   */
  useAuthorizationServer(other: OAuthMcpServer): void;
  /** A live access token's scope (`""` without one), or undefined when it is not a live token of this server. */
  introspect(accessToken: string): { scope: string } | undefined;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope?: string;
  resource?: string;
}

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function serveOAuthProtectedMcp(options: OAuthMcpServerOptions): Promise<OAuthMcpServer> {
  const token = () => randomBytes(18).toString("base64url");
  const grants = new Map<string, Grant>();
  const accessTokens = new Map<string, { expiry: number; scope?: string }>();
  let requiredScope: string | undefined;
  let authorizationServer: OAuthMcpServer | undefined;
  const introspect = (presented: string) => {
    const live = accessTokens.get(presented);
    return live && live.expiry > Date.now() ? { scope: live.scope ?? "" } : undefined;
  };
  const refreshTokens = new Map<string, { clientId: string; scope?: string }>();
  const clients = new Map<string, { secret?: string }>(
    (options.clients ?? []).map((c) => [c.client_id, { secret: c.client_secret }]),
  );
  const ttl = options.accessTokenTtlSec ?? 3600;
  let base = "";
  const state: Omit<
    OAuthMcpServer,
    | "url"
    | "issuer"
    | "approve"
    | "expireAccessTokens"
    | "requireScope"
    | "useAuthorizationServer"
    | "introspect"
    | "close"
    | typeof Symbol.asyncDispose
  > = {
    registrations: [],
    authorizeRequests: [],
    tokenRequests: [],
    revoked: [],
    mcpAuthorizations: [],
    gateRefusals: [],
    requestLog: [],
  };

  function issue(clientId: string, scope: string | undefined) {
    const access = token();
    const refresh = token();
    accessTokens.set(access, { expiry: Date.now() + ttl * 1000, scope });
    refreshTokens.set(refresh, { clientId, scope });
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: ttl,
      refresh_token: refresh,
      ...(scope ? { scope } : {}),
    };
  }

  function clientAuth(req: IncomingMessage, body: URLSearchParams): string | undefined {
    const header = req.headers.authorization;
    if (header?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(header.slice(6), "base64")
        .toString()
        .split(":")
        .map(decodeURIComponent);
      return id && clients.get(id)?.secret === secret ? id : undefined;
    }
    const id = body.get("client_id") ?? undefined;
    if (id && options.clientIdMetadataDocuments && id.startsWith("https://")) return id;
    if (!id || !clients.has(id)) return undefined;
    const expected = clients.get(id)?.secret;
    return expected === undefined || expected === body.get("client_secret") ? id : undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", base);
    state.requestLog.push({ path: url.pathname, headers: req.headers });
    const gate = Object.entries(options.requiredHeaders ?? {});
    if (
      url.pathname !== "/authorize" &&
      gate.some(([name, value]) => req.headers[name.toLowerCase()] !== value)
    ) {
      state.gateRefusals.push(url.pathname);
      return json(res, 403, { error: "access_denied", error_description: "gate: missing header" });
    }
    switch (url.pathname) {
      case "/.well-known/oauth-protected-resource/mcp":
      case "/.well-known/oauth-protected-resource":
        return json(res, 200, {
          resource: `${base}/mcp`,
          authorization_servers: [authorizationServer?.issuer ?? base],
          ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
        });
      case "/.well-known/oauth-authorization-server":
        return json(res, 200, {
          issuer: options.issuerOverride ?? base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          revocation_endpoint: `${base}/revoke`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
          ...(options.clientIdMetadataDocuments ? { client_id_metadata_document_supported: true } : {}),
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
        });
      case "/register": {
        const metadata = JSON.parse(await readBody(req)) as OAuthMcpServer["registrations"][number];
        const clientId = `client-${token()}`;
        clients.set(clientId, {});
        const { client_name, redirect_uris, client_uri, logo_uri } = metadata;
        state.registrations.push({ client_id: clientId, client_name, redirect_uris, client_uri, logo_uri });
        return json(res, 201, { ...metadata, client_id: clientId, token_endpoint_auth_method: "none" });
      }
      case "/authorize": {
        const q = url.searchParams;
        state.authorizeRequests.push(q);
        const redirectUri = q.get("redirect_uri") ?? "";
        const clientId = q.get("client_id") ?? "";
        const known =
          clients.has(clientId) || (options.clientIdMetadataDocuments && clientId.startsWith("https://"));
        if (!known || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge")) {
          return json(res, 400, { error: "invalid_request" });
        }
        const code = token();
        grants.set(code, {
          clientId,
          redirectUri,
          challenge: q.get("code_challenge") ?? "",
          scope: q.get("scope") ?? undefined,
          resource: q.get("resource") ?? undefined,
        });
        const target = new URL(redirectUri);
        target.searchParams.set("code", code);
        if (q.has("state")) target.searchParams.set("state", q.get("state") ?? "");
        res.writeHead(302, { location: target.href }).end();
        return;
      }
      case "/token": {
        const body = new URLSearchParams(await readBody(req));
        state.tokenRequests.push(body);
        const clientId = clientAuth(req, body);
        if (!clientId) return json(res, 401, { error: "invalid_client" });
        if (body.get("grant_type") === "authorization_code") {
          const grant = grants.get(body.get("code") ?? "");
          grants.delete(body.get("code") ?? "");
          const verifier = body.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (
            !grant ||
            grant.clientId !== clientId ||
            grant.challenge !== challenge ||
            grant.redirectUri !== body.get("redirect_uri")
          ) {
            return json(res, 400, { error: "invalid_grant" });
          }
          return json(res, 200, issue(clientId, grant.scope));
        }
        if (body.get("grant_type") === "refresh_token") {
          const old = refreshTokens.get(body.get("refresh_token") ?? "");
          if (!old || old.clientId !== clientId) return json(res, 400, { error: "invalid_grant" });
          refreshTokens.delete(body.get("refresh_token") ?? ""); // rotation: a refresh token works once
          return json(res, 200, issue(clientId, old.scope));
        }
        if (body.get("grant_type") === "client_credentials" && clients.get(clientId)?.secret !== undefined) {
          return json(res, 200, issue(clientId, body.get("scope") ?? undefined));
        }
        return json(res, 400, { error: "unsupported_grant_type" });
      }
      case "/revoke": {
        const body = new URLSearchParams(await readBody(req));
        const value = body.get("token") ?? "";
        state.revoked.push(value);
        accessTokens.delete(value);
        refreshTokens.delete(value);
        res.writeHead(200).end();
        return;
      }
      case "/mcp": {
        const header = req.headers.authorization ?? "";
        state.mcpAuthorizations.push(header);
        const presented = header.startsWith("Bearer ") ? header.slice(7) : "";
        const live = (authorizationServer?.introspect ?? introspect)(presented);
        if (!live) {
          res
            .writeHead(401, {
              "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
              "content-type": "application/json",
            })
            .end(JSON.stringify({ error: "invalid_token" }));
          return;
        }
        const granted = new Set(live.scope.split(" "));
        if (requiredScope?.split(" ").some((s) => !granted.has(s))) {
          res
            .writeHead(403, {
              "www-authenticate": `Bearer error="insufficient_scope", scope="${requiredScope}", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
              "content-type": "application/json",
            })
            .end(JSON.stringify({ error: "insufficient_scope" }));
          return;
        }
        await answerStatelessMcp(options.makeServer, req, res);
        return;
      }
      default:
        res.writeHead(404).end("not found");
    }
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const close = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    ...state,
    url: `${base}/mcp`,
    issuer: base,
    approve: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: "manual" });
      const location = response.headers.get("location");
      if (response.status !== 302 || !location) throw new Error(`authorize answered ${response.status}`);
      return location;
    },
    expireAccessTokens: () => accessTokens.clear(),
    requireScope: (scope) => {
      requiredScope = scope;
    },
    useAuthorizationServer: (other) => {
      authorizationServer = other;
    },
    introspect,
    close,
    [Symbol.asyncDispose]: close,
  };
}
